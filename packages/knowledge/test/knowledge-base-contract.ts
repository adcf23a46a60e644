import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ArticleTooLarge,
  InvalidArticle,
  TooManyArticles,
} from '../src/articles/knowledge-errors.js';
import type { KnowledgeLimits } from '../src/articles/knowledge-limits.js';
import { parseArticleFile } from '../src/help-center/article-file.js';
import type { KnowledgeBase } from '../src/store/knowledge-base.js';

export const SAMPLE_DIR = join(import.meta.dirname, '..', 'sample-help-center');

/** A store of the kind under test, empty, with these limits and clock. */
export type OpenKnowledgeBase = (options?: {
  limits?: Partial<KnowledgeLimits>;
  now?: () => Date;
}) => Promise<KnowledgeBase>;

/** A clock that moves one second each time it is read. */
export function ticking(start = Date.parse('2026-11-27T08:00:00Z')): () => Date {
  let at = start;
  return () => new Date((at += 1_000));
}

export async function loadSamples(kb: KnowledgeBase): Promise<void> {
  for (const name of readdirSync(SAMPLE_DIR).sort())
    await kb.upsert(parseArticleFile(readFileSync(join(SAMPLE_DIR, name), 'utf8'), name));
}

const refund = {
  slug: 'refund-policy',
  title: 'Refund policy',
  body: '# Refunds\n\nYou can ask for a refund within 30 days of delivery.',
  tags: ['billing'],
};

/** What every KnowledgeBase does, whatever keeps it. */
export function knowledgeBaseContract(open: OpenKnowledgeBase): void {
  it('when an article is upserted, then get returns it with its language, tags, time and content hash', async () => {
    const kb = await open({ now: () => new Date('2026-11-27T08:00:00.000Z') });
    const { outcome, article } = await kb.upsert(refund);
    expect(outcome).toBe('created');
    expect(await kb.get('refund-policy')).toEqual({
      ...refund,
      language: 'en',
      updated_at: '2026-11-27T08:00:00.000Z',
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      source: 'api',
    });
    expect(article).toEqual(await kb.get('refund-policy'));
    expect(await kb.get('no-such-article')).toBeUndefined();
  });

  it('when the same content is upserted again, then it is unchanged and keeps its time', async () => {
    const kb = await open({ now: ticking() });
    const first = await kb.upsert(refund);
    const again = await kb.upsert({ ...refund, tags: ['billing'] });
    expect(again.outcome).toBe('unchanged');
    expect(again.article).toEqual(first.article);
    expect(await kb.get('refund-policy')).toEqual(first.article);
  });

  it('when other content is upserted under a slug, then it replaces the article, with a new hash and time', async () => {
    const kb = await open({ now: ticking() });
    const first = await kb.upsert(refund);
    const second = await kb.upsert({ ...refund, body: 'Refunds within 60 days.' });
    expect(second.outcome).toBe('replaced');
    const stored = await kb.get('refund-policy');
    expect(stored?.body).toBe('Refunds within 60 days.');
    expect(stored?.hash).not.toBe(first.article.hash);
    expect(Date.parse(stored!.updated_at)).toBeGreaterThan(Date.parse(first.article.updated_at));
  });

  it('when an article is deleted, then get, list and search no longer return it', async () => {
    const kb = await open();
    await kb.upsert({
      slug: 'zeppelin-tours',
      title: 'Zeppelin tours',
      body: 'Our zeppelin flies daily.',
    });
    await kb.upsert(refund);
    expect((await kb.search('zeppelin')).map((hit) => hit.slug)).toEqual(['zeppelin-tours']);
    expect(await kb.delete('zeppelin-tours')).toBe(true);
    expect(await kb.get('zeppelin-tours')).toBeUndefined();
    expect(await kb.search('zeppelin')).toEqual([]);
    expect((await kb.list({ limit: 10 })).articles.map((a) => a.slug)).toEqual(['refund-policy']);
    expect(await kb.delete('zeppelin-tours')).toBe(false);
  });

  it('when articles are listed in pages, then each page follows the last in slug order, without bodies', async () => {
    const kb = await open();
    for (const slug of ['e-five', 'a-one', 'c-three', 'b-two', 'd-four', 'a1'])
      await kb.upsert({ slug, title: slug, body: `Body of ${slug}.` });
    const pages: string[][] = [];
    let after: string | undefined;
    do {
      const page = await kb.list({ limit: 4, ...(after ? { after } : {}) });
      pages.push(page.articles.map((a) => a.slug));
      expect(page.articles.every((a) => !('body' in a))).toBe(true);
      after = page.next;
    } while (after);
    expect(pages).toEqual([
      ['a-one', 'a1', 'b-two', 'c-three'],
      ['d-four', 'e-five'],
    ]);
  });

  it('when the sample help center is asked "what is your refund window?", then the refund article’s passage comes first', async () => {
    const kb = await open();
    await loadSamples(kb);
    expect((await kb.list({ limit: 100 })).articles).toHaveLength(20);
    const hits = await kb.search('what is your refund window?', { limit: 5 });
    expect(hits[0]).toMatchObject({ slug: 'refund-policy', title: 'Refund policy' });
    expect(hits[0]!.passage).toContain('within **30 days** of delivery');
    // A passage, not the whole article.
    expect(hits[0]!.passage.length).toBeLessThan((await kb.get('refund-policy'))!.body.length);
    expect(hits.length).toBeLessThanOrEqual(5);
    for (let i = 1; i < hits.length; i += 1)
      expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
  });

  it('when no passage holds every word of a question, then those holding some of them come back', async () => {
    const kb = await open();
    await loadSamples(kb);
    const [hit] = await kb.search('how long does shipping take to the United States?');
    expect(hit).toMatchObject({ slug: 'shipping-times' });
  });

  it('when an article is replaced, then its new text is found and its old text is not', async () => {
    const kb = await open();
    await kb.upsert({
      slug: 'gift-wrap',
      title: 'Gift wrap',
      body: 'Gifts come wrapped in kraft paper.',
    });
    expect((await kb.search('kraft')).map((hit) => hit.slug)).toEqual(['gift-wrap']);
    await kb.upsert({
      slug: 'gift-wrap',
      title: 'Gift wrap',
      body: 'Gifts come wrapped in linen cloth.',
    });
    expect(await kb.search('kraft')).toEqual([]);
    expect(await kb.search('linen')).toEqual([
      expect.objectContaining({ slug: 'gift-wrap', passage: 'Gifts come wrapped in linen cloth.' }),
    ]);
  });

  it('when searching in a language, then only its articles come back, its word forms matching', async () => {
    const kb = await open();
    await loadSamples(kb);
    const german = await kb.search('Rücksendungen', { language: 'de' });
    expect(german[0]?.slug).toBe('rueckerstattung');
    expect(german.every((hit) => hit.slug === 'rueckerstattung')).toBe(true);
    const french = await kb.search('livraison express', { language: 'FR' });
    expect(french.map((hit) => hit.slug)).toContain('delais-de-livraison');
    expect(new Set(french.map((hit) => hit.slug))).toEqual(new Set(['delais-de-livraison']));
    expect(await kb.search('refund window', { language: 'de' })).toEqual([]);
  });

  it('when the query has no words, then nothing comes back', async () => {
    const kb = await open();
    await kb.upsert(refund);
    expect(await kb.search('   ')).toEqual([]);
    expect(await kb.search('?!')).toEqual([]);
  });

  it('when no article is stored, then searchIfAny answers undefined; with one, its hits or none', async () => {
    const kb = await open();
    expect(await kb.searchIfAny('refund window')).toBeUndefined();
    await kb.upsert(refund);
    expect((await kb.searchIfAny('refund window'))?.map((hit) => hit.slug)).toEqual([
      'refund-policy',
    ]);
    expect(await kb.searchIfAny('zebra')).toEqual([]);
    expect(await kb.searchIfAny('   ')).toEqual([]);
    await kb.delete('refund-policy');
    expect(await kb.searchIfAny('refund window')).toBeUndefined();
  });

  it('when a body is over the size limit, then the upsert is refused with article_too_large (413) and nothing is stored', async () => {
    const kb = await open({ limits: { maxBodyBytes: 100 } });
    const error = await kb.upsert({ ...refund, body: 'é'.repeat(51) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArticleTooLarge);
    expect(error).toMatchObject({ status: 413, code: 'article_too_large' });
    expect(await kb.get('refund-policy')).toBeUndefined();
    expect((await kb.upsert({ ...refund, body: 'é'.repeat(50) })).outcome).toBe('created');
  });

  it('when the knowledge base is full, then a new slug is refused with too_many_articles (422) and a replacement is not', async () => {
    const kb = await open({ limits: { maxArticles: 2 } });
    await kb.upsert({ ...refund, slug: 'one' });
    await kb.upsert({ ...refund, slug: 'two' });
    const error = await kb.upsert({ ...refund, slug: 'three' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TooManyArticles);
    expect(error).toMatchObject({ status: 422, code: 'too_many_articles' });
    expect((await kb.upsert({ ...refund, slug: 'two', body: 'New text.' })).outcome).toBe(
      'replaced',
    );
    await kb.delete('one');
    expect((await kb.upsert({ ...refund, slug: 'three' })).outcome).toBe('created');
  });

  it('when an article is invalid, then it is refused with invalid_article (422) naming the field', async () => {
    const kb = await open();
    const error = await kb.upsert({ ...refund, slug: 'Not A Slug' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArticle);
    expect(error).toMatchObject({
      status: 422,
      code: 'invalid_article',
      extra: { errors: [expect.objectContaining({ path: 'slug' })] },
    });
    expect((await kb.list({ limit: 10 })).articles).toEqual([]);
  });
}

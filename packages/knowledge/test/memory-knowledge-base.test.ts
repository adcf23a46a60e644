import { MemoryKnowledgeBase } from '../src/store/memory-knowledge-base.js';
import { knowledgeBaseContract } from './knowledge-base-contract.js';

describe('MemoryKnowledgeBase', () => {
  knowledgeBaseContract(async (options) => new MemoryKnowledgeBase(options));

  it('when a query word is in most passages of a large knowledge base, then only passages with its rarer words come back', async () => {
    const kb = new MemoryKnowledgeBase();
    for (let i = 0; i < 600; i += 1)
      await kb.upsert({ slug: `note-${i}`, title: `Note ${i}`, body: `Acme gadget number ${i}.` });
    await kb.upsert({ slug: 'refunds', title: 'Refunds', body: 'Acme refunds within 30 days.' });

    const hits = await kb.search('acme refunds');

    expect(hits.map((hit) => hit.slug)).toEqual(['refunds']);
    // Alone, the common word is still searched.
    expect(await kb.search('acme', { limit: 3 })).toHaveLength(3);
  });

  it('when a query word is misspelled, then words up to two edits away are found, and no further', async () => {
    const kb = new MemoryKnowledgeBase();
    await kb.upsert({
      slug: 'troubleshooting',
      title: 'Troubleshooting',
      body: 'Restart the hub first.',
    });

    expect((await kb.search('troublexhooting')).map((hit) => hit.slug)).toEqual([
      'troubleshooting',
    ]);
    expect((await kb.search('troublexhooxing')).map((hit) => hit.slug)).toEqual([
      'troubleshooting',
    ]);
    // Three edits: a long word's share (0.2 of 15 letters) would allow them; typos stop at two.
    expect(await kb.search('troublexhooxinx')).toEqual([]);
  });

  it('when searches follow one another, then each scores as it would alone (the score arrays reused between searches start at zero)', async () => {
    const articles = [
      { slug: 'refunds', title: 'Refunds', body: 'Refunds within 30 days of the payment.' },
      {
        slug: 'shipping',
        title: 'Shipping',
        body: 'Shipping takes 3 days; refunds of shipping too.',
      },
      { slug: 'payments', title: 'Payments', body: 'We take card payment and bank transfer.' },
    ];
    const used = new MemoryKnowledgeBase();
    const fresh = new MemoryKnowledgeBase();
    for (const article of articles) {
      await used.upsert(article);
      await fresh.upsert(article);
    }

    await used.search('refunds shipping payment');
    const after = await used.search('refunds');

    expect(after).toEqual(await fresh.search('refunds'));
  });

  it('when the index changes after a word was searched (an article added, one replaced, one deleted), then the next search reads the changed index, not the postings kept for the word', async () => {
    const kb = new MemoryKnowledgeBase();
    await kb.upsert({ slug: 'refunds', title: 'Refunds', body: 'Refunds within 30 days.' });
    await kb.upsert({ slug: 'returns', title: 'Returns', body: 'Returns and refunds by post.' });
    expect((await kb.search('refunds')).map((hit) => hit.slug)).toEqual(['refunds', 'returns']);

    await kb.upsert({ slug: 'money-back', title: 'Refunds, refunds', body: 'Refunds refunds.' });
    await kb.upsert({ slug: 'refunds', title: 'Refunds', body: 'Money back within 60 days.' });
    await kb.delete('returns');
    const hits = await kb.search('refunds');

    expect(hits.map((hit) => hit.slug).sort()).toEqual(['money-back', 'refunds']);
    expect(hits.find((hit) => hit.slug === 'refunds')!.passage).toContain('60 days');
  });
});

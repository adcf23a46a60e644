import { z } from 'zod';
import { articleInputSchema } from '../src/articles/article.js';
import { parseArticleFile } from '../src/help-center/article-file.js';

describe('article schemas', () => {
  it('when the input schema is rendered as JSON Schema (as http-kit documents a route), then it names its fields and rules', () => {
    const schema = z.toJSONSchema(articleInputSchema, { io: 'input', unrepresentable: 'any' });
    expect(schema).toMatchObject({
      type: 'object',
      required: ['slug', 'title', 'body'],
      additionalProperties: false,
      properties: { slug: { pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' }, language: { type: 'string' } },
    });
  });

  it('when a language is written in capitals, then it is kept lowercase', () => {
    const article = articleInputSchema.parse({
      slug: 'a',
      title: 'A',
      body: 'B',
      language: 'pt-BR',
    });
    expect(article).toEqual({ slug: 'a', title: 'A', body: 'B', language: 'pt-br', tags: [] });
  });

  it('when a file’s front matter names no slug, then the file name is the slug', () => {
    const article = parseArticleFile(
      '---\ntitle: Gift cards\n---\n\nValid 3 years.\n',
      'Gift-Cards.md',
    );
    expect(article).toEqual({
      slug: 'gift-cards',
      title: 'Gift cards',
      body: 'Valid 3 years.',
      language: 'en',
      tags: [],
    });
  });

  it('when front matter is a list, not key: value lines, then the file is refused as invalid_article', () => {
    expect(() => parseArticleFile('---\n- a\n- b\n---\nText', 'list.md')).toThrow(
      expect.objectContaining({ code: 'invalid_article' }),
    );
  });
});

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
});

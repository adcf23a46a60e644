import type { Event } from '@google/adk';
import {
  checkReplyCitations as checkCitations,
  RetrievedArticles,
} from '../src/help-center/citations.js';
import { Transcript } from '../src/sessions/transcript.js';

/** An ADK event carrying search_help_center's result, as the specialist's tool step produces it. */
const searchResult = (passages: Array<{ slug: string; title: string; text: string }>): Event =>
  ({
    author: 'technical',
    content: {
      role: 'user',
      parts: [
        {
          functionResponse: {
            name: 'search_help_center',
            response: { query: 'q', passages: passages.map((p) => ({ heading: null, ...p })) },
          },
        },
      ],
    },
  }) as unknown as Event;

describe('citations', () => {
  it('when an answer cites an article the turn did not retrieve, then that citation is removed and the others kept', () => {
    const retrieved = new RetrievedArticles();
    retrieved.collect(
      searchResult([{ slug: 'shipping-times', title: 'Shipping times', text: 'Ships in 2 days.' }]),
    );

    const checked = checkCitations(
      'It ships in 2 days [kb:shipping-times]. Returns are free [kb:made-up-policy].',
      retrieved,
    );

    expect(checked.reply).toBe('It ships in 2 days [kb:shipping-times]. Returns are free.');
    expect(checked.removed).toEqual(['made-up-policy']);
    expect(checked.sources).toEqual([
      { slug: 'shipping-times', title: 'Shipping times', text: 'Ships in 2 days.' },
    ]);
  });

  it('when nothing was retrieved, then every citation goes and there are no sources', () => {
    const checked = checkCitations(
      'See [kb:refund-policy] and [kb: ../etc].',
      new RetrievedArticles(),
    );

    expect(checked).toEqual({
      reply: 'See and.',
      sources: [],
      removed: ['refund-policy', '../etc'],
    });
  });

  it('when an answer cites one article twice, then it is one source', () => {
    const retrieved = new RetrievedArticles();
    retrieved.collect(
      searchResult([
        { slug: 'refund-policy', title: 'Refunds', text: 'Within 30 days.' },
        { slug: 'refund-policy', title: 'Refunds', text: 'Unused items only.' },
      ]),
    );

    const checked = checkCitations(
      '30 days [kb:refund-policy], unused [kb:refund-policy].',
      retrieved,
    );

    expect(checked.sources).toEqual([
      { slug: 'refund-policy', title: 'Refunds', text: 'Within 30 days.\n\nUnused items only.' },
    ]);
    expect(checked.removed).toEqual([]);
  });
});

describe('a transcript with sources', () => {
  it('when answers carry long sources, then the transcript’s character budget counts them', () => {
    const transcript = new Transcript({ maxTurns: 200, maxChars: 10_000 });
    const source = { slug: 'a', title: 'A', text: 'x'.repeat(3_000) };
    for (let i = 0; i < 5; i += 1) {
      transcript.append([
        { role: 'user', agent: null, text: `question ${i}`, at: '2026-11-27T08:00:00.000Z' },
        {
          role: 'assistant',
          agent: 'technical',
          text: `answer ${i} [kb:a]`,
          sources: [source],
          at: '2026-11-27T08:00:00.000Z',
        },
      ]);
    }

    const kept = transcript.turns.reduce(
      (sum, turn) =>
        sum + turn.text.length + (turn.sources ?? []).reduce((n, s) => n + s.text.length, 0),
      0,
    );
    expect(kept).toBeLessThanOrEqual(10_000);
    expect(transcript.turns.at(-1)?.text).toBe('answer 4 [kb:a]');
  });
});

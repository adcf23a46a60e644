import {
  citedSentences,
  citedSlugs,
  contentWords,
  detectLanguage,
  editSimilarity,
  overlap,
} from '../src/metrics/text.js';
import { checkReply } from '../src/metrics/reply-checks.js';

describe('text metrics', () => {
  it('when a citation follows the full stop of a sentence, then it belongs to that sentence', () => {
    const sentences = citedSentences('Refunds take 30 days. [kb:refund-policy] Anything else?');
    expect(sentences).toEqual([
      { sentence: 'Refunds take 30 days.', slugs: ['refund-policy'] },
      { sentence: 'Anything else?', slugs: [] },
    ]);
  });

  it('when a reply cites an article twice, then it is listed once', () => {
    expect(citedSlugs('A [kb:a-b] and [kb:a-b], then [kb:c].')).toEqual(['a-b', 'c']);
  });

  it('when a sentence is made of the words of the passage, then its overlap is 1; of other words, 0', () => {
    const passage = 'You can ask for a refund within **30 days** of delivery.';
    expect(overlap('You can ask for a refund within 30 days of delivery.', passage)).toBe(1);
    expect(overlap('Our warehouse ships pianos overnight.', passage)).toBe(0);
    expect(contentWords('The **30 days** window')).toEqual(
      ['30', 'days', 'window'].filter((w) => w.length >= 3),
    );
  });

  it('when two texts differ by one character, then their edit similarity is 1 - 1/length', () => {
    expect(editSimilarity('abcd', 'abce')).toBeCloseTo(0.75);
    expect(editSimilarity('Same  Text', 'same text')).toBe(1);
  });

  it('when a reply is German, French or English, then its language is detected', () => {
    expect(
      detectLanguage('Vielen Dank für Ihre Nachricht, wir prüfen das und melden uns bei Ihnen.'),
    ).toBe('de');
    expect(detectLanguage('Merci pour votre message, nous vous répondons avec les délais.')).toBe(
      'fr',
    );
    expect(detectLanguage('Thank you for your email, we will check the invoice for you.')).toBe(
      'en',
    );
    expect(detectLanguage('123 456')).toBeNull();
  });

  it('when a reply cites an unknown slug, misses a fact and makes a promise, then each check says so', () => {
    const kb = new Map([['refund-policy', 'You can ask for a refund within 30 days of delivery.']]);
    const checks = checkReply(
      'You can ask for a refund within 30 days of delivery. [kb:refund-policy] See [kb:made-up]. I promise it works.',
      {
        kb_cites: ['refund-policy', 'shipping-times'],
        facts: ['30 days', 'INV-1'],
        forbidden: ['works'],
      },
      kb,
    );
    expect(checks.invalid_citations).toEqual(['made-up']);
    expect(checks.expected_cites_found).toBe(1);
    expect(checks.expected_cites).toBe(2);
    expect(checks.missing_facts).toEqual(['INV-1']);
    expect(checks.forbidden_hits).toEqual(['I promise', 'works']);
    expect(checks.cited_sentences).toBe(2);
    expect(checks.grounded_sentences).toBe(1);
  });
});

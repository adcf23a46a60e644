import { cutPassages } from '../src/passages/cut-passages.js';

describe('cutPassages', () => {
  it('when a body has headings, then each passage holds the text under one heading, with that heading', () => {
    const body =
      'Intro line.\n\n# Refunds\n\nWithin 30 days.\n\n## Exceptions ##\n\nGift cards.\n\nSale items.';
    expect(cutPassages(body, 800)).toEqual([
      { position: 0, heading: null, text: 'Intro line.' },
      { position: 1, heading: 'Refunds', text: 'Within 30 days.' },
      { position: 2, heading: 'Exceptions', text: 'Gift cards.\n\nSale items.' },
    ]);
  });

  it('when paragraphs do not fit one passage together, then they are packed into several, none over the bound', () => {
    const paragraph = (n: number) => `Paragraph ${n} ${'word '.repeat(10).trim()}.`;
    const body = [1, 2, 3, 4, 5].map(paragraph).join('\n\n');
    const passages = cutPassages(body, 130);
    expect(passages.map((p) => p.text)).toEqual([
      `${paragraph(1)}\n\n${paragraph(2)}`,
      `${paragraph(3)}\n\n${paragraph(4)}`,
      paragraph(5),
    ]);
  });

  it('when one paragraph is longer than a passage, then it is cut at sentence ends, and a sentence too long at a space', () => {
    const sentence = 'This sentence has exactly forty chars. ';
    const long = `${sentence.repeat(5)}${'x'.repeat(30)} ${'y'.repeat(30)}`;
    const passages = cutPassages(long, 100);
    expect(passages.every((p) => p.text.length <= 100)).toBe(true);
    expect(passages.map((p) => p.text).join(' ')).toBe(long.trim());
    expect(passages[0]!.text.endsWith('chars.')).toBe(true);
  });

  it('when a fenced code block holds lines starting with #, then they are not headings', () => {
    const body = '# Setup\n\n```sh\n# install\nnpm i\n\n# run\nnpm start\n```';
    expect(cutPassages(body, 800)).toEqual([
      { position: 0, heading: 'Setup', text: '```sh\n# install\nnpm i\n\n# run\nnpm start\n```' },
    ]);
  });

  it('when a body is headings only, then it is one passage of itself', () => {
    expect(cutPassages('# Coming soon', 800)).toEqual([
      { position: 0, heading: null, text: '# Coming soon' },
    ]);
  });
});

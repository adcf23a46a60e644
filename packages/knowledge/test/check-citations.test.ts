import { checkCitations } from '../src/citations/check-citations.js';

const known = (slugs: string[]) => (slug: string) => (slugs.includes(slug) ? { slug } : undefined);

describe('checkCitations', () => {
  it('when every citation names a known slug, then the text is unchanged and each is cited once, in order', () => {
    const text =
      'Within 30 days [kb:refund-policy]. Ships in 2 days [kb:shipping]. See [kb:refund-policy].';

    const checked = checkCitations(text, known(['refund-policy', 'shipping']));

    expect(checked).toEqual({
      text,
      cited: [{ slug: 'refund-policy' }, { slug: 'shipping' }],
      removed: [],
    });
  });

  it('when a citation names an unknown slug, then it is removed with its space and recorded', () => {
    const checked = checkCitations(
      'Within 30 days [kb:refund-policy]. Free returns [kb:made-up]. Also [kb: other ].',
      known(['refund-policy']),
    );

    expect(checked.text).toBe('Within 30 days [kb:refund-policy]. Free returns. Also.');
    expect(checked.removed).toEqual(['made-up', 'other']);
    expect(checked.cited).toEqual([{ slug: 'refund-policy' }]);
  });

  it('when the text cites nothing, then nothing is cited or removed', () => {
    expect(checkCitations('We will check.', known([]))).toEqual({
      text: 'We will check.',
      cited: [],
      removed: [],
    });
  });
});

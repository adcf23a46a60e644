import { bodyTooLargeDetail, readableSize } from '../src/errors/body-too-large.js';

describe('the 413 detail', () => {
  test.each([
    [512, '512 bytes'],
    [1024, '1 KB'],
    [1_048_576, '1 MB'],
    [2_202_009, '2.1 MB'],
    [1_100_013, '1.05 MB'],
  ])('when %d bytes are shown, then they read %s', (bytes, text) => {
    expect(readableSize(bytes)).toBe(text);
  });

  test('when the body has a length, then the detail gives it and the limit', () => {
    expect(bodyTooLargeDetail({ length: 2_202_009, limit: 1_048_576 })).toBe(
      'The body is 2.1 MB; the limit is 1 MB.',
    );
  });
});

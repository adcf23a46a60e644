const MB = 1024 * 1024;
const KB = 1024;

/** A size as people read it, in the units of Express's limits ("1mb" is 1 048 576 bytes): "2.1 MB", "1 MB". */
export function readableSize(bytes: number): string {
  const [unit, size] =
    bytes >= MB ? ['MB', bytes / MB] : bytes >= KB ? ['KB', bytes / KB] : ['bytes', bytes];
  return `${Number(size.toFixed(unit === 'bytes' ? 0 : 2))} ${unit}`;
}

/**
 * What a 413 says: the body's size (body-parser's `length`, from Content-Length; absent for a chunked body,
 * which is cut off once past the limit) and the limit.
 */
export function bodyTooLargeDetail(error: { length?: unknown; limit?: unknown }): string {
  const limit = typeof error.limit === 'number' ? readableSize(error.limit) : undefined;
  if (!limit) return 'The request body is larger than this service accepts.';
  return typeof error.length === 'number'
    ? `The body is ${readableSize(error.length)}; the limit is ${limit}.`
    : `The body is over the limit of ${limit}.`;
}

/**
 * An error with an HTTP meaning. Thrown anywhere in a request; the error middleware turns it into
 * a problem-details body. `extra` fields are merged into that body (e.g. `{ thread_id }`).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'HttpError';
  }
}

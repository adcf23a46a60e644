/**
 * An error with an HTTP meaning. Thrown anywhere in a request; the error middleware turns it into
 * a problem-details body. `extra` fields are merged into that body (e.g. `{ thread_id }`);
 * `headers` go on the response (e.g. `Retry-After`).
 */
export class HttpError extends Error {
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    options: { extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'HttpError';
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }
}

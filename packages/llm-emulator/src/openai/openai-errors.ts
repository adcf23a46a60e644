const TYPES: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  404: { type: 'invalid_request_error', code: 'unknown_url' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  503: { type: 'server_error', code: 'service_unavailable' },
};

/** OpenAI's error body: `{ error: { message, type, param, code } }`. */
export function openAiError(status: number, message: string) {
  const kind = TYPES[status] ?? {
    type: status >= 500 ? 'server_error' : 'invalid_request_error',
    code: null,
  };
  return { error: { message, type: kind.type, param: null, code: kind.code } };
}

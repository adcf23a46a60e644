const SECRET_KEY = /(key|token|secret|password|passwd|authorization|credential)/i;
export const REDACTED = '[redacted]';

/** Masks the password of a URL such as postgres://user:pass@host/db; other strings pass unchanged. */
function redactUrlPassword(value: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(value)) return value;
  try {
    const url = new URL(value);
    if (!url.password) return value;
    url.password = REDACTED;
    return url.toString();
  } catch {
    return value;
  }
}

/**
 * A copy of a config object safe to log: values under secret-looking keys are masked,
 * and passwords inside URLs are masked wherever they appear.
 */
export function redactSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item)) as T;
  if (typeof value === 'string') return redactUrlPassword(value) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      SECRET_KEY.test(key) && inner !== undefined && inner !== '' ? REDACTED : redactSecrets(inner),
    ]),
  ) as T;
}

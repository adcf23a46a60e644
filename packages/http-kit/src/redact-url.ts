/** Query parameters whose names say they carry a secret (`?token=`, `api_key`, `password`, `sig`, …). */
const SECRET_PARAM = /token|key|secret|pass(word)?|pwd|sig(nature)?|auth|credential|jwt|session/i;

/**
 * The URL as it may be logged: the value of every secret-looking query parameter replaced, so a
 * token sent as `?token=` never reaches a log line. Raw text is kept otherwise (no re-encoding).
 */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A name that is not valid percent-encoding is matched as it stands.
      }
      return eq >= 0 && SECRET_PARAM.test(decoded) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, start)}?${query.join('&')}`;
}

/**
 * Docker Compose's variable interpolation and `.env` reading, for the forms this repository's compose file
 * and `.env.example` use, so the tests see the environment `docker compose config` would give each service
 * (https://docs.docker.com/reference/compose-file/interpolation/):
 *
 * - `${VAR}` / `$VAR`: the value, or empty when unset;
 * - `${VAR:-default}`: the default when VAR is unset **or empty**; `${VAR-default}`: only when unset;
 * - `${VAR:?message}` / `${VAR?message}`: an error when unset or empty / unset;
 * - `${VAR:+other}` / `${VAR+other}`: `other` when set and not empty / set;
 * - defaults may nest (`${A-x${B:-y}z}`); `$$` is a literal `$`.
 */
export type Environment = ReadonlyMap<string, string>;

export class InterpolationError extends Error {}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/** The text up to the `}` that closes the `${` before `start`, allowing nested `${…}`. */
function closingBrace(text: string, start: number): number {
  let depth = 1;
  for (let i = start; i < text.length; i += 1) {
    if (text[i] === '$' && text[i + 1] === '$') i += 1;
    else if (text[i] === '$' && text[i + 1] === '{') {
      depth += 1;
      i += 1;
    } else if (text[i] === '}' && (depth -= 1) === 0) return i;
  }
  throw new InterpolationError(`unclosed \${ in ${text}`);
}

function substitute(expression: string, env: Environment): string {
  const name = NAME.exec(expression)?.[0];
  if (!name) throw new InterpolationError(`invalid \${${expression}}`);
  const rest = expression.slice(name.length);
  const value = env.get(name);
  const operator = /^(:?[-?+])?/.exec(rest)?.[0] ?? '';
  if (operator === '' && rest !== '') throw new InterpolationError(`invalid \${${expression}}`);
  const word = () => interpolate(rest.slice(operator.length), env);
  const set = value !== undefined;
  const nonEmpty = set && value !== '';
  switch (operator) {
    case '':
      return value ?? '';
    case ':-':
      return nonEmpty ? value : word();
    case '-':
      return set ? value : word();
    case ':?':
      if (!nonEmpty) throw new InterpolationError(`${name}: ${word()}`);
      return value;
    case '?':
      if (!set) throw new InterpolationError(`${name}: ${word()}`);
      return value;
    case ':+':
      return nonEmpty ? word() : '';
    default:
      return set ? word() : '';
  }
}

/** `text` with every variable replaced as Compose replaces it, given the environment Compose sees. */
export function interpolate(text: string, env: Environment): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (char !== '$') {
      out += char;
    } else if (text[i + 1] === '$') {
      out += '$';
      i += 1;
    } else if (text[i + 1] === '{') {
      const end = closingBrace(text, i + 2);
      out += substitute(text.slice(i + 2, end), env);
      i = end;
    } else {
      const name = NAME.exec(text.slice(i + 1))?.[0];
      if (name) {
        out += env.get(name) ?? '';
        i += name.length;
      } else out += '$';
    }
  }
  return out;
}

/**
 * A `.env` file as Compose reads it: `KEY=value` lines (comments and blank lines skipped); `KEY=` sets KEY
 * to the empty string, which is *set*; quotes around a value are removed.
 */
export function readDotEnv(text: string): Map<string, string> {
  const env = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match || line.trimStart().startsWith('#')) continue;
    const raw = match[2]!;
    const quoted = /^(['"])(.*)\1$/.exec(raw);
    env.set(match[1]!, quoted ? quoted[2]! : raw.replace(/\s+#.*$/, ''));
  }
  return env;
}

/** Every string in a parsed compose document, interpolated. */
export function interpolateDocument<T>(value: T, env: Environment): T {
  if (typeof value === 'string') return interpolate(value, env) as T;
  if (Array.isArray(value))
    return value.map((item: unknown) => interpolateDocument(item, env)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, interpolateDocument(item, env)]),
    ) as T;
  return value;
}

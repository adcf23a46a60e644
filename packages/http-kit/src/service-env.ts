import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';
import type { AuthSettings, NamedToken } from './auth/authenticator.js';
import type { TracingSettings } from './tracing/start-tracing.js';

/**
 * A positive integer from an environment variable, with a default; at most 2147483647, the
 * longest delay Node's timers take (a longer one fires after 1 ms). The same rule as llm-config's
 * `intFromEnv`, which stays on zod alone.
 */
export const positiveIntFromEnv = (defaultValue: number) =>
  z.coerce.number().int().positive().max(2_147_483_647).default(defaultValue);

/** `true` or `false` from an environment variable, with a default; any other value is refused. */
export const flagFromEnv = (defaultValue: boolean) =>
  z
    .enum(['true', 'false'])
    .default(defaultValue ? 'true' : 'false')
    .transform((value) => value === 'true');

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** proxy-addr's names for ranges of addresses, as Express's 'trust proxy' takes them. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGES.includes(entry)) return true;
  const [address = '', bits, ...more] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || more.length > 0) return false;
  return (
    bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128))
  );
}

/**
 * `TRUST_PROXY`: how many proxies stand in front of the service (a hop count), or which ones
 * (addresses, subnets, `loopback`, `linklocal`, `uniquelocal`), as Express's 'trust proxy' takes
 * them; `req.ip` is then the address the nearest untrusted hop saw. `true` is refused: it would
 * believe whatever X-Forwarded-For any client sends.
 */
function trustProxy(value: string, ctx: z.RefinementCtx): TrustProxy {
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(/[\s,]+/).filter(Boolean);
  const bad = entries.find((entry) => !isProxyAddress(entry));
  if (bad !== undefined || entries.length === 0) {
    ctx.addIssue({
      code: 'custom',
      message: `${bad ?? value} is not a number of proxies, an address, a subnet (10.0.0.0/8) or loopback/linklocal/uniquelocal`,
    });
    return z.NEVER;
  }
  return entries;
}

/** Which proxies' X-Forwarded-For the service believes: none (false), a hop count, or addresses. */
export type TrustProxy = false | number | string[];

const NAMED_TOKEN = /^([A-Za-z0-9._@-]{1,64}):(\S{8,})$/;

/**
 * `API_TOKENS`: `name:token` pairs separated by commas or whitespace, or the path of a file that
 * holds them (one per line, `#` comments), which keeps the tokens out of the environment.
 */
function namedTokens(value: string, ctx: z.RefinementCtx): NamedToken[] {
  const text = /^[./]/.test(value) ? readTokenFile(value, ctx) : value;
  const pairs = text
    .split('\n')
    .map((line) => line.replace(/#.*/, ''))
    .join(' ')
    .split(/[\s,]+/)
    .filter(Boolean);
  const tokens: NamedToken[] = [];
  for (const pair of pairs) {
    const match = NAMED_TOKEN.exec(pair);
    if (!match) {
      // The pair itself may be a secret: say where, not what.
      ctx.addIssue({
        code: 'custom',
        message: `entry ${tokens.length + 1} is not name:token (a name of letters, digits, . _ @ -, and a token of 8+ characters)`,
      });
      return z.NEVER;
    }
    tokens.push({ name: match[1]!, token: match[2]! });
  }
  return tokens;
}

function readTokenFile(path: string, ctx: z.RefinementCtx): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    ctx.addIssue({ code: 'custom', message: `cannot read the token file ${path}` });
    return z.NEVER;
  }
}

/**
 * The HTTP part of a service's environment, which each service's env schema extends: where it
 * listens, who may call it (`API_TOKEN`, named `API_TOKENS`, JWTs checked against `AUTH_JWKS_URL`),
 * and how much it logs.
 */
export function httpServiceEnv(defaultPort: number) {
  return z.object({
    PORT: z.coerce.number().int().min(0).max(65535).default(defaultPort),
    /** All interfaces by default, as a container needs; tests bind 127.0.0.1. */
    HOST: z.string().trim().min(1).default('0.0.0.0'),
    API_TOKEN: z.string().min(1).optional(),
    API_TOKENS: z.string().trim().min(1).transform(namedTokens).optional(),
    AUTH_JWKS_URL: z.url({ protocol: /^https?$/ }).optional(),
    AUTH_AUDIENCE: z.string().min(1).optional(),
    AUTH_ISSUER: z.string().min(1).optional(),
    LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
    /** Proxies in front of the service (Express's 'trust proxy'): unset, none; what `req.ip` and rate limits use. */
    TRUST_PROXY: z
      .string()
      .trim()
      .optional()
      .transform((value, ctx): TrustProxy => (value ? trustProxy(value, ctx) : false)),
    /** `true`: GET /metrics answers without a token (a scraper inside the cluster); default behind it. */
    METRICS_PUBLIC: flagFromEnv(false),
    /** Traces go over OTLP/HTTP to `<this>/v1/traces`; unset (and no traces endpoint): tracing off. */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    /** `true`: prompt and reply text on model spans. Off by default: they may hold personal data. */
    OTEL_CAPTURE_CONTENT: flagFromEnv(false),
  });
}

type HttpServiceEnv = z.output<ReturnType<typeof httpServiceEnv>>;

/**
 * The rules between the auth variables, for a service's env schema to apply after extending
 * httpServiceEnv: `.superRefine(authEnvRules)`.
 */
export function authEnvRules(env: HttpServiceEnv, ctx: z.RefinementCtx): void {
  if (env.AUTH_JWKS_URL && !env.AUTH_AUDIENCE)
    ctx.addIssue({
      code: 'custom',
      path: ['AUTH_AUDIENCE'],
      message: 'is required with AUTH_JWKS_URL',
    });
  if (!env.AUTH_JWKS_URL && (env.AUTH_AUDIENCE || env.AUTH_ISSUER))
    ctx.addIssue({
      code: 'custom',
      path: ['AUTH_JWKS_URL'],
      message: 'is required with AUTH_AUDIENCE or AUTH_ISSUER',
    });
}

/** startTracing's settings from the service's environment (OTEL_*). */
export function tracingSettingsFromEnv(serviceName: string, env: HttpServiceEnv): TracingSettings {
  return {
    serviceName,
    endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT,
    tracesEndpoint: env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
    captureContent: env.OTEL_CAPTURE_CONTENT,
  };
}

/**
 * Who may call the service, from its environment (see createHttpApp's `auth`; `API_TOKEN` goes to
 * its `apiToken`). Expects the env checked by authEnvRules.
 */
export function authSettingsFromEnv(env: HttpServiceEnv): AuthSettings {
  const tokens = [...(env.API_TOKENS ?? [])];
  if (!env.AUTH_JWKS_URL || !env.AUTH_AUDIENCE) return { tokens };
  return {
    tokens,
    jwt: {
      jwksUrl: env.AUTH_JWKS_URL,
      audience: env.AUTH_AUDIENCE,
      issuer: env.AUTH_ISSUER,
    },
  };
}

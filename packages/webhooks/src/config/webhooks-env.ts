import { flagFromEnv, positiveIntFromEnv } from '@repo/http-kit';
import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { endpointId } from './endpoint-id.js';
import { z } from 'zod';

function signsWith(secret: string): boolean {
  try {
    new Webhook(secret);
    return true;
  } catch {
    return false;
  }
}

/** One subscriber: where to POST, the Standard Webhooks secret, and the event types it wants. */
export const endpointConfigSchema = z.strictObject({
  /** Names the endpoint in metrics, logs and deliveries (default: its host and a short hash). */
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_.-]{0,62}$/i, 'must be letters, digits, dot, dash or underscore')
    .optional(),
  url: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .refine(
      (url) => !new URL(url).username && !new URL(url).password,
      'must not carry credentials',
    ),
  secret: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=]{16,}$/, 'must be a whsec_ base64 secret')
    // The signing package's own check: `=` only as padding, at the end ('whsec_abc=def…' passes the
    // pattern, and each signature would throw).
    .refine(signsWith, 'must be a whsec_ base64 secret'),
  /** Event types, or `*` for all. */
  events: z.array(z.string().min(1)).min(1),
});

export type EndpointConfig = z.infer<typeof endpointConfigSchema>;

/**
 * WEBHOOK_ENDPOINTS: a JSON list, or the path of a file holding one (secrets then stay out of the
 * process environment). Empty: no webhooks.
 */
const endpointsFromEnv = z
  .string()
  .trim()
  .default('')
  .transform((value, ctx) => {
    if (!value) return [];
    let text = value;
    if (!value.startsWith('[')) {
      try {
        text = readFileSync(value, 'utf8');
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON list or a readable file of one' });
        return z.NEVER;
      }
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be valid JSON' });
      return z.NEVER;
    }
    const endpoints = z.array(endpointConfigSchema).safeParse(parsed);
    if (!endpoints.success) {
      const first = endpoints.error.issues[0]!;
      ctx.addIssue({ code: 'custom', message: `[${first.path.join('.')}] ${first.message}` });
      return z.NEVER;
    }
    // Deliveries are stored by endpoint id: two endpoints with one id would take each other's.
    const ids = endpoints.data.map(endpointId);
    const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
    if (repeated) {
      ctx.addIssue({
        code: 'custom',
        message: `has two endpoints named ${repeated} (the same name, or the same URL unnamed): give each its own name`,
      });
      return z.NEVER;
    }
    return endpoints.data;
  });

/** The webhook part of a service's environment, for its env schema to extend. */
export function webhooksEnv() {
  return {
    WEBHOOK_ENDPOINTS: endpointsFromEnv,
    /** Allow targets on loopback, private, link-local and metadata addresses (development, tests). */
    WEBHOOK_ALLOW_PRIVATE: flagFromEnv(false),
    /** Put the email or chat text in payloads (default: ids, status, revision, actor and links only). */
    WEBHOOK_INCLUDE_CONTENT: flagFromEnv(false),
    /** One attempt's deadline (connect to the end of the answer). */
    WEBHOOK_TIMEOUT_MS: positiveIntFromEnv(10_000),
    /** How long a delivery keeps being retried before it is `failed` (default one day). */
    WEBHOOK_RETRY_FOR_MS: positiveIntFromEnv(86_400_000),
    /** First retry delay; each next one doubles, up to an hour. */
    WEBHOOK_RETRY_BASE_MS: positiveIntFromEnv(5_000),
    /** Attempts in flight at once per endpoint (per instance). */
    WEBHOOK_CONCURRENCY: positiveIntFromEnv(4),
    /** Delivered and failed deliveries are deleted this many days after they settled (PostgreSQL). */
    WEBHOOK_RETENTION_DAYS: positiveIntFromEnv(7),
  };
}

export interface WebhookEnv {
  WEBHOOK_ENDPOINTS: EndpointConfig[];
  WEBHOOK_ALLOW_PRIVATE: boolean;
  WEBHOOK_INCLUDE_CONTENT: boolean;
  WEBHOOK_TIMEOUT_MS: number;
  WEBHOOK_RETRY_FOR_MS: number;
  WEBHOOK_RETRY_BASE_MS: number;
  WEBHOOK_CONCURRENCY: number;
  WEBHOOK_RETENTION_DAYS: number;
}

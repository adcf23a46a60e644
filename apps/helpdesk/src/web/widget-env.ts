import { flagFromEnv } from '@repo/http-kit';
import { intFromEnv } from '@repo/llm-config';
import { z } from 'zod';

/** An origin a page that embeds the chat may have: scheme, host and optional port, nothing else. */
const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$|^https?:\/\/\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * `WIDGET_ALLOWED_ORIGINS`: `*` (any site may frame the chat page) or origins separated by commas
 * or spaces; what the page's Content-Security-Policy puts in `frame-ancestors`.
 */
function allowedOrigins(value: string, ctx: z.RefinementCtx): string[] | '*' {
  const entries = value.split(/[\s,]+/).filter(Boolean);
  if (entries.length === 1 && entries[0] === '*') return '*';
  for (const entry of entries) {
    if (!ORIGIN.test(entry)) {
      ctx.addIssue({
        code: 'custom',
        message: `${entry} is not an origin like https://shop.example`,
      });
      return z.NEVER;
    }
  }
  return entries;
}

/** The chat page's and widget's settings, part of the service's env schema (src/env.ts). */
export const widgetEnv = {
  WIDGET_ALLOWED_ORIGINS: z.string().trim().default('*').transform(allowedOrigins),
  /** `true`: the chat page, POST /chat and GET /sessions/{id} answer without a token, rate limited. */
  WIDGET_PUBLIC: flagFromEnv(false),
  /** Public widget: requests per minute from one IP address to /chat and /sessions/{id}. */
  WIDGET_RATE_PER_IP: intFromEnv(60),
  /** Public widget: messages per minute to one session. */
  WIDGET_RATE_PER_SESSION: intFromEnv(20),
};

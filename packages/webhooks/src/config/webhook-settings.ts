import { z } from 'zod';
import { endpointId } from './endpoint-id.js';
import { webhooksEnv, type EndpointConfig, type WebhookEnv } from './webhooks-env.js';

/** An endpoint with its stable id (metrics label, queue name, delivery column). */
export interface Endpoint extends EndpointConfig {
  id: string;
}

export interface WebhookSettings {
  endpoints: Endpoint[];
  allowPrivate: boolean;
  includeContent: boolean;
  timeoutMs: number;
  retryForMs: number;
  retryBaseMs: number;
  concurrency: number;
  /** Settled deliveries older than this are deleted (PostgreSQL; memory keeps a bounded number). */
  retentionMs: number;
}

export function webhookSettings(env: WebhookEnv): WebhookSettings {
  return {
    endpoints: env.WEBHOOK_ENDPOINTS.map((config) => ({ ...config, id: endpointId(config) })),
    allowPrivate: env.WEBHOOK_ALLOW_PRIVATE,
    includeContent: env.WEBHOOK_INCLUDE_CONTENT,
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    retryForMs: env.WEBHOOK_RETRY_FOR_MS,
    retryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
    concurrency: env.WEBHOOK_CONCURRENCY,
    retentionMs: env.WEBHOOK_RETENTION_DAYS * 86_400_000,
  };
}

export const subscribes = (endpoint: EndpointConfig, type: string) =>
  endpoint.events.includes('*') || endpoint.events.includes(type);

/** No endpoints, every other setting at its default: a service built without webhooks. */
export const noWebhooks = (): WebhookSettings => webhookSettings(z.object(webhooksEnv()).parse({}));

import { createLogger, type Logger } from '@repo/http-kit';
import { deliveryMetrics } from '../src/sending/delivery-metrics.js';
import type { AttemptDeps } from '../src/sending/attempt-delivery.js';
import { endpointId } from '../src/config/endpoint-id.js';
import type { WebhookSettings } from '../src/config/webhook-settings.js';

export const silent: Logger = createLogger({ name: 'webhooks-test', level: 'silent' });

/** Settings for tests: loopback allowed, short timeouts and retries, unless overridden. */
export function testDeps(
  endpoints: Array<{ url: string; secret: string; events?: string[]; name?: string }>,
  overrides: Partial<WebhookSettings> = {},
): AttemptDeps {
  return {
    settings: {
      endpoints: endpoints.map((e) => {
        const config = { ...e, events: e.events ?? ['*'] };
        return { ...config, id: endpointId(config) };
      }),
      allowPrivate: true,
      includeContent: false,
      timeoutMs: 2_000,
      retryForMs: 60_000,
      retryBaseMs: 50,
      concurrency: 2,
      retentionMs: 86_400_000,
      ...overrides,
    },
    metrics: deliveryMetrics(undefined),
    logger: silent,
  };
}

export {
  webhooksEnv,
  endpointConfigSchema,
  type EndpointConfig,
  type WebhookEnv,
} from './config/webhooks-env.js';
export { endpointId } from './config/endpoint-id.js';
export {
  webhookSettings,
  noWebhooks,
  subscribes,
  type Endpoint,
  type WebhookSettings,
} from './config/webhook-settings.js';
export {
  envelopeOf,
  deliverySchema,
  type Delivery,
  type DeliveryStatus,
  type InStatement,
  type Outbox,
  type TransactionClient,
  type WebhookEvent,
} from './outbox/outbox.js';
export { MemoryOutbox } from './outbox/memory-outbox.js';
export { PostgresOutbox, type PostgresOutboxOptions } from './outbox/postgres-outbox.js';
export { webhookTablesMigration } from './outbox/webhook-tables.js';
export { deliveryMetrics, type DeliveryMetrics } from './sending/delivery-metrics.js';
export { isRefusedAddress, resolveTarget, TargetRefused } from './sending/target-address.js';
export { sendAttempt, classifyStatus, type AttemptResult } from './sending/send-attempt.js';
export { webhookRoutes } from './routes/webhook-routes.js';

export { createHttpApp, JSON_MEDIA_TYPES, type HttpAppOptions } from './create-http-app.js';
export { serve, type ServeOptions, type RunningServer } from './serve.js';
export { createLogger, serializeError, type Logger } from './logger.js';
export { HttpError } from './errors/http-error.js';
export { problemFor } from './errors/error-handler.js';
export { problemBody, problemSchema, type Problem } from './errors/problem.js';
export { requestContext, currentLogger, type RequestContext } from './request-context.js';
export {
  flagFromEnv,
  httpServiceEnv,
  LOG_LEVELS,
  positiveIntFromEnv,
  type TrustProxy,
} from './service-env.js';
export {
  defineRoute,
  emptyBody,
  type Route,
  type RouteSpec,
  type ResponseSpec,
  type HttpMethod,
} from './routes/define-route.js';
export { writeJson } from './routes/write-json.js';
export {
  undocumentedResponses,
  documentedRequests,
  type ResponseEvent,
} from './routes/undocumented-responses.js';
export { openApiDocument, type OpenApiDocument, type OpenApiInput } from './openapi.js';
export { NotReady, READINESS_TIMEOUT_MS, type ReadinessCheck } from './health.js';
export { createMetricsRegistry } from './metrics/http-metrics.js';
export {
  modelCallMetrics,
  type ModelCall,
  type ModelCallOutcome,
} from './metrics/model-call-metrics.js';
export { metricSample } from './metrics/metric-sample.js';
export {
  startTracing,
  TRACING_OFF,
  type Tracing,
  type TracingSettings,
  type TracedLibraries,
} from './tracing/start-tracing.js';
export { startOtlpReceiver, type ReceivedSpan } from './tracing/otlp-receiver.js';
export { modelCallSpan, type ModelCallSpan, type ModelSpanEnd } from './tracing/model-call-span.js';
export {
  EventStream,
  DEFAULT_HEARTBEAT_MS,
  MAX_BUFFERED_BYTES,
  type EventStreamOptions,
} from './streams/event-stream.js';
export { backoffMs, type Backoff } from './retry/backoff.js';
export { readPackageVersion } from './package-version.js';
export { installedVersion, type FrameworkPatch } from './framework-patch.js';
export { FRAMEWORK_PATCHES } from './framework-patches.js';
export { authSettingsFromEnv, authEnvRules, tracingSettingsFromEnv } from './service-env.js';
export { currentActor } from './request-context.js';
export {
  createAuthenticator,
  type AuthSettings,
  type NamedToken,
  type JwtSettings,
} from './auth/authenticator.js';

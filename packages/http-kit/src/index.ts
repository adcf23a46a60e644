export { createHttpApp, type HttpAppOptions } from './create-http-app.js';
export { serve, type ServeOptions, type RunningServer } from './serve.js';
export { createLogger, serializeError, type Logger } from './logger.js';
export { HttpError } from './errors/http-error.js';
export { problemBody, problemSchema, type Problem } from './errors/problem.js';
export { requestContext, currentLogger, type RequestContext } from './request-context.js';
export { httpServiceEnv, LOG_LEVELS } from './service-env.js';
export {
  defineRoute,
  emptyBody,
  type Route,
  type RouteSpec,
  type ResponseSpec,
  type HttpMethod,
} from './routes/define-route.js';
export {
  undocumentedResponses,
  documentedRequests,
  type ResponseEvent,
} from './routes/undocumented-responses.js';
export { openApiDocument, type OpenApiDocument, type OpenApiInput } from './openapi.js';
export type { ReadinessCheck } from './health.js';
export { createMetricsRegistry } from './metrics/http-metrics.js';
export { readPackageVersion } from './package-version.js';
export type { FrameworkPatch } from './framework-patch.js';
export { authSettingsFromEnv, authEnvRules } from './service-env.js';
export { currentActor } from './request-context.js';
export {
  createAuthenticator,
  type AuthSettings,
  type NamedToken,
  type JwtSettings,
} from './auth/authenticator.js';

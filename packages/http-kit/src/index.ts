export { createHttpApp, type HttpAppOptions } from './create-http-app.js';
export { serve, type ServeOptions, type RunningServer } from './serve.js';
export { createLogger, type Logger } from './logger.js';
export { HttpError } from './errors/http-error.js';
export { problemBody, type Problem } from './errors/problem.js';
export { validate } from './validate.js';
export { requestContext, currentLogger, type RequestContext } from './request-context.js';
export {
  openApiDocument,
  problemSchema,
  type OpenApiInput,
  type OperationSpec,
} from './openapi.js';
export type { ReadinessCheck } from './health.js';

import type { OpenApiDocument } from '../openapi.js';

/** One finished response, as `createHttpApp({ onResponse })` reports it. */
export interface ResponseEvent {
  method: string;
  path: string;
  status: number;
}

function templateMatcher(template: string): RegExp {
  const pattern = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${pattern}$`);
}

/**
 * The responses whose status the document does not list for their route. Responses on paths the
 * document does not know (unknown routes' 404, health checks) are not the document's to list.
 */
export function undocumentedResponses(
  document: OpenApiDocument,
  events: ResponseEvent[],
): ResponseEvent[] {
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    matches: templateMatcher(template),
  }));
  return events.filter((event) => {
    const method = event.method.toLowerCase() === 'head' ? 'get' : event.method.toLowerCase();
    const route = templates.find(({ matches }) => matches.test(event.path));
    const operation = route && document.paths[route.template]?.[method];
    return operation !== undefined && !(String(event.status) in operation.responses);
  });
}

/** Each documented operation as a request to make, with `sample` in every path parameter. */
export function documentedRequests(
  document: OpenApiDocument,
  sample = 'sample-id',
): Array<{ method: string; path: string }> {
  return Object.entries(document.paths).flatMap(([template, operations]) =>
    Object.keys(operations).map((method) => ({
      method,
      path: template.replace(/\{[^}]+\}/g, sample),
    })),
  );
}

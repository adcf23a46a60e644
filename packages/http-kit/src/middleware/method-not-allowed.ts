import type { RequestHandler, Router } from 'express';
import { HttpError } from '../errors/http-error.js';

interface RouteLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): boolean;
}

/**
 * Runs after the routes: when the path is known but the method is not, answers 405 with `Allow`;
 * an unknown path answers 404. Express itself answers neither as problem details.
 */
export function methodNotAllowed(routers: Router[]): RequestHandler {
  return (req, _res, next) => {
    const allowed = new Set<string>();
    for (const router of routers) {
      for (const layer of router.stack as unknown as RouteLayer[]) {
        if (!layer.route || !layer.match(req.path)) continue;
        for (const method of Object.keys(layer.route.methods)) allowed.add(method.toUpperCase());
      }
    }
    if (allowed.size === 0) {
      return next(new HttpError(404, 'not_found', `No route for ${req.method} ${req.path}.`));
    }
    if (allowed.has('GET')) allowed.add('HEAD');
    const allow = [...allowed].sort().join(', ');
    next(
      new HttpError(405, 'method_not_allowed', `${req.method} is not allowed on ${req.path}.`, {
        headers: {
          Allow: allow,
        },
      }),
    );
  };
}

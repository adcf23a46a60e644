import { currentActor } from '@repo/http-kit';
import type { Caller } from '../tools/caller.js';

/** A caller the API's own auth let in: anyone but the public widget. */
export type ApiCaller = Exclude<Caller, { kind: 'widget' }>;

/**
 * The caller of the current request as http-kit authenticated it: the actor its token stands
 * for, or `operator` when nothing was asked (an open service's `anonymous`, `system` outside any
 * request). A public widget request is never this: its routes say so (SessionAccess).
 */
export function apiCaller(): ApiCaller {
  const actor = currentActor();
  return actor === 'anonymous' || actor === 'system'
    ? { kind: 'operator' }
    : { kind: 'client', name: actor };
}

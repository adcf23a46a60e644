import { currentActor } from '@repo/http-kit';
import type { Caller } from '../tools/caller.js';

/** A caller the API's own auth let in: anyone but the public widget. */
export type ApiCaller = Exclude<Caller, { kind: 'widget' }>;

/**
 * The current request's caller as http-kit authenticated it, or `operator` when nothing was asked
 * (an open service's `anonymous`, `system` outside requests). Never the public widget's.
 */
export function apiCaller(): ApiCaller {
  const actor = currentActor();
  return actor === 'anonymous' || actor === 'system'
    ? { kind: 'operator' }
    : { kind: 'client', name: actor };
}

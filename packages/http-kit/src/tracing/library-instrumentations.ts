/**
 * @opentelemetry/instrumentation@0.205.0: an instrumentation's patches applied to module objects
 * handed to it, not through its require/import hooks.
 *
 * The hooks (require-in-the-middle, and import-in-the-middle behind `--import
 * @opentelemetry/instrumentation/hook.mjs`) patch a module only when it is loaded after the
 * instrumentation is enabled. The services' ESM entry points load express, http and pg before
 * server.ts starts tracing, and the tests build apps inside jest, whose module registry the hooks
 * never see. So each instrumentation is constructed disabled (no hooks), and the patch of each of
 * its module definitions (`getModuleDefinitions()`, public but marked experimental) is applied to
 * the very module object the service uses; `undo` applies their unpatch. The gain is function: the
 * standard HTTP server/client and PostgreSQL spans in both services without a loader flag.
 *
 * Guarded by packages/http-kit/test/tracing.test.ts (server span of a request; pg spans with their
 * statement; nothing left patched after shutdown).
 */
import type { InstrumentationBase } from '@opentelemetry/instrumentation';

/** Patches `modules` (by the name an instrumentation's definition carries: `http`, `pg`, …). */
export function patchModules(
  instrumentation: InstrumentationBase,
  modules: Record<string, unknown>,
): () => void {
  const undo: Array<() => void> = [];
  for (const definition of instrumentation.getModuleDefinitions()) {
    const target = modules[definition.name];
    if (target === undefined || !definition.patch) continue;
    definition.patch(target);
    undo.push(() => definition.unpatch?.(target));
  }
  return () => {
    for (const step of undo.reverse()) step();
  };
}

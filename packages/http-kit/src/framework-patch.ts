/**
 * One entry of a service's register of framework patches (its `src/patches/index.ts`): where the
 * service reaches into a library's internals, which version that was checked against, what it buys
 * (the bench's scenario 5 measures the speed ones), and the test that guards it.
 */
export interface FrameworkPatch {
  id: string;
  library: string;
  /** The installed version the patch was checked against; each app's test fails when it moves. */
  version: string;
  file: string;
  touches: string;
  gain: string;
  guardedBy: string;
}

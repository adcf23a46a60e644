import { PROM_CLIENT_DEFAULT_METRICS_PATCH, type FrameworkPatch } from '@repo/http-kit';

/**
 * Where the service reaches into a framework's internals, one file each in this folder. Each
 * patch is switched by one boolean where it is applied (default on), so its gain can be measured:
 * `createRootAgent(settings, { geminiBaseUrl, geminiCallPolicy })`. A cached tool declaration
 * (FunctionTool._getDeclaration) was removed in this round: the bench's scenario 5 showed no gain.
 * test/framework-patches.test.ts fails when a pinned version moves without the entry re-checked.
 */

export const FRAMEWORK_PATCHES: FrameworkPatch[] = [
  {
    id: 'geminiBaseUrl',
    library: '@google/adk',
    version: '1.2.0',
    file: 'src/patches/adk-gemini-base-url.ts',
    touches: 'Gemini.getHttpOptions (protected; adds baseUrl)',
    gain: 'function, not speed: ADK 1.2.0 has no option for the Gemini base URL, so without it the agents cannot reach GEMINI_BASE_URL (an emulator, a proxy, Vertex-compatible gateways)',
    guardedBy: 'test/startup.test.ts',
  },
  {
    id: 'geminiCallPolicy',
    library: '@google/adk',
    version: '1.2.0',
    file: 'src/patches/adk-gemini-call-policy.ts',
    touches: 'Gemini.generateContentAsync (deadline, retries, typed error response)',
    gain: 'function, not speed: the deadline, bounded retries and 502/504 answers; without it a hung model holds a turn forever and every failure is a 502',
    guardedBy: 'test/model-faults.test.ts, test/model-retry.test.ts',
  },
  // http-kit's, in both services' /metrics (its paths are from the repository root).
  PROM_CLIENT_DEFAULT_METRICS_PATCH,
];

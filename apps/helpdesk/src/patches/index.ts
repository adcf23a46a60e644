/**
 * Where the service reaches into a framework's internals, one file each in this folder. Each
 * patch is switched by one boolean where it is applied (default on), so its gain can be measured:
 * `createRootAgent(settings, { declareToolsOnce, geminiBaseUrl, geminiCallPolicy })`.
 * test/framework-patches.test.ts fails when a pinned version moves without the entry re-checked.
 */
export interface FrameworkPatch {
  id: string;
  library: string;
  version: string;
  file: string;
  touches: string;
  guardedBy: string;
}

export const FRAMEWORK_PATCHES: FrameworkPatch[] = [
  {
    id: 'declareToolsOnce',
    library: '@google/adk',
    version: '1.2.0',
    file: 'src/patches/adk-function-tool-declaration.ts',
    touches: 'FunctionTool._getDeclaration (memoized per tool)',
    guardedBy: 'test/model-calls.test.ts',
  },
  {
    id: 'geminiBaseUrl',
    library: '@google/adk',
    version: '1.2.0',
    file: 'src/patches/adk-gemini-base-url.ts',
    touches: 'Gemini.getHttpOptions (protected; adds baseUrl)',
    guardedBy: 'test/startup.test.ts',
  },
  {
    id: 'geminiCallPolicy',
    library: '@google/adk',
    version: '1.2.0',
    file: 'src/patches/adk-gemini-call-policy.ts',
    touches: 'Gemini.generateContentAsync (deadline, retries, typed error response)',
    guardedBy: 'test/model-faults.test.ts, test/model-retry.test.ts',
  },
];

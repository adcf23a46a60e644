/**
 * Kept for the benchmark's `adk api_server` peer: ADK's own tooling (`adk api_server` / `adk web`
 * from @google/adk-devtools) loads a module exporting `rootAgent`, here the same tree the service
 * runs, configured from the same AGENT_LLM_* variables. The service itself never imports it.
 */
import { loadAgentEnv } from '../env.js';
import { createRootAgent } from './agent-tree.js';

export const rootAgent = createRootAgent(loadAgentEnv());

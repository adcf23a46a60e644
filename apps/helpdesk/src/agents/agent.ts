/**
 * Entry point for ADK's own tooling (`adk api_server` / `adk web` from @google/adk-devtools),
 * which loads a module exporting `rootAgent`: the same tree the service runs, configured from
 * the same AGENT_LLM_* variables. The service itself never imports this module.
 */
import { loadAgentEnv } from '../env.js';
import { createRootAgent } from './agent-tree.js';

export const rootAgent = createRootAgent(loadAgentEnv());

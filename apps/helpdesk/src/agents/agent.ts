/**
 * `rootAgent` for ADK's own tooling (`adk api_server`, `adk web`; the bench's peer): the service's
 * tree from the same AGENT_LLM_* variables. The service itself never imports it.
 */
import { loadAgentEnv } from '../env.js';
import { createRootAgent } from './agent-tree.js';

export const rootAgent = createRootAgent(loadAgentEnv());

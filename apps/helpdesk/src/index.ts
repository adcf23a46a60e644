/**
 * What other workspace packages (the bench) may import from helpdesk: the agent tree, nothing
 * that reads env or listens. The service itself starts from server.ts.
 */
export { createRootAgent } from './agents/agent-tree.js';
export type { ModelPatches } from './llm/model.js';

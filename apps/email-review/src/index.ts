/**
 * What other workspace packages (the bench) may import from email-review: the compiled graph and
 * the model client, nothing that reads env or listens. The service itself starts from server.ts.
 */
export { createEmailGraph, type EmailGraph } from './workflow/graph.js';
export { createOpenAiClient } from './llm/openai-client.js';

/**
 * What other workspace packages (the bench) may import from email-review: the compiled graph, the
 * model client and the PostgreSQL persistence (whose framework patches the bench measures), the
 * whole service over memory (whose metrics and tracing the bench measures), nothing that reads env
 * or listens. The service itself starts from server.ts.
 */
export { createEmailGraph, type EmailGraph } from './workflow/graph.js';
export { createOpenAiClient } from './llm/openai-client.js';
export { openPostgresPersistence } from './persistence/postgres-persistence.js';
export { createEmailReview } from './email-review.js';
export { CATEGORIES } from './workflow/classification.js';
export { createMemoryPersistence } from './persistence/memory-persistence.js';

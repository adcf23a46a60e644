/**
 * Entry point for LangGraph's own tooling (`langgraph.json`: the dev server, LangGraph Studio). It
 * serves this graph with its own checkpointer, so none is attached here; sends only reach the log
 * (through an in-memory outbox, so each thread still sends at most once per process).
 */
import { createLogger } from '@repo/http-kit';
import { loadWorkflowEnv } from './env.js';
import { createOpenAiClient } from './llm/openai-client.js';
import { MemoryOutbox } from './mailer/outbox.js';
import { createOutboxMailer } from './mailer/outbox-mailer.js';
import { createEmailGraph } from './workflow/graph.js';

const settings = loadWorkflowEnv();
const logger = createLogger({ name: 'email-review-graph' });

export const graph = createEmailGraph({
  llm: createOpenAiClient(settings),
  model: settings.model,
  mailer: createOutboxMailer(new MemoryOutbox(), logger),
});

/**
 * Entry point for LangGraph's own tooling (`langgraph.json`: the dev server, LangGraph Studio). It
 * serves this graph with its own checkpointer, so none is attached here; an approved reply only
 * reaches the log (real delivery is the service's queue, src/delivery/).
 */
import { createLogger } from '@repo/http-kit';
import { loadSupport, loadWorkflowEnv } from './env.js';
import { createOpenAiClient } from './llm/openai-client.js';
import { createEmailGraph } from './workflow/graph.js';

const settings = loadWorkflowEnv();
const { prompts, labels } = loadSupport();
const logger = createLogger({ name: 'email-review-graph' });

export const graph = createEmailGraph({
  llm: createOpenAiClient(settings),
  model: settings.model,
  prompts,
  labels,
  mailer: {
    async send(email) {
      logger.info(
        { thread_id: email.thread_id, chars: email.text.length },
        'reply approved (log only)',
      );
    },
  },
});

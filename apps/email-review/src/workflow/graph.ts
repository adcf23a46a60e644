import { END, START, StateGraph, type BaseCheckpointSaver } from '@langchain/langgraph';
import type { WorkflowDeps } from './deps.js';
import { classifyNode } from './nodes/classify.js';
import { draftNode } from './nodes/draft.js';
import { retrieveNode } from './nodes/retrieve.js';
import { sendNode } from './nodes/send.js';
import { EmailState } from './state.js';

/**
 * classify (and, with a help center, retrieve beside it) → draft → (pause for review) → send. A
 * redraft starts again at draft, which then retrieves for itself.
 */
export function buildEmailGraph(deps: WorkflowDeps) {
  const firstSteps = deps.helpCenter ? ['classify', 'retrieve'] : ['classify'];
  return new StateGraph(EmailState)
    .addNode('classify', classifyNode(deps))
    .addNode('retrieve', retrieveNode(deps))
    .addNode('draft', draftNode(deps))
    .addNode('send', sendNode(deps))
    .addConditionalEdges(START, () => firstSteps, ['classify', 'retrieve'])
    .addEdge('classify', 'draft')
    .addEdge('retrieve', 'draft')
    .addEdge('draft', 'send')
    .addEdge('send', END);
}

/**
 * The compiled graph. Without a checkpointer (LangGraph's own server supplies one) it still
 * pauses before `send`.
 */
export function createEmailGraph(deps: WorkflowDeps, checkpointer?: BaseCheckpointSaver) {
  return compileEmailGraph(buildEmailGraph(deps), checkpointer);
}

/** Compiles the built graph over `checkpointer` (a decision compiles it over its transaction's saver). */
export function compileEmailGraph(
  builder: ReturnType<typeof buildEmailGraph>,
  checkpointer?: BaseCheckpointSaver,
) {
  return builder.compile({
    ...(checkpointer ? { checkpointer } : {}),
    // The human review: every run stops before `send` until someone approves.
    interruptBefore: ['send'],
    name: 'email_review',
  });
}

export type EmailGraph = ReturnType<typeof createEmailGraph>;

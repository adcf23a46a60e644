import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { WorkflowDeps } from '../deps.js';
import type { EmailStateUpdate, EmailStateValues } from '../state.js';

/**
 * send — reads `reply`; writes `sent` (time and final text). Runs only after an explicit approval
 * (the graph pauses before it), and only where the graph runs outside the service (LangGraph's dev
 * server, the bench), which may pass a `mailer` to hear of it. The service never runs it: approve
 * commits the message to its delivery queue, then records `sent` as this step's output
 * (src/operations/approve-thread.ts), so delivery happens in a worker, after the answer.
 */
export function sendNode(deps: Pick<WorkflowDeps, 'mailer' | 'clock'>) {
  const clock = deps.clock ?? (() => new Date());
  return async (
    state: EmailStateValues,
    config: LangGraphRunnableConfig,
  ): Promise<EmailStateUpdate> => {
    const text = state.reply ?? '';
    const at = clock().toISOString();
    await deps.mailer?.send({
      thread_id: String(config.configurable?.thread_id),
      text,
      sent_at: at,
    });
    return { sent: { at, text } };
  };
}

import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { WorkflowDeps } from '../deps.js';
import type { EmailStateUpdate, EmailStateValues } from '../state.js';

/**
 * send — reads `reply`; writes `sent` (time and final text). Runs only after an approval, and only
 * outside the service (LangGraph's dev server, the bench; `mailer` hears of it): the service's
 * approve records `sent` itself and a worker delivers (src/operations/decide-thread.ts).
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

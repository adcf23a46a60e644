import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { WorkflowDeps } from '../deps.js';
import type { EmailStateUpdate, EmailStateValues } from '../state.js';

/**
 * send — reads `reply`; hands it to the mailer and writes `sent` (time and final text).
 * Runs only after an explicit approval (the graph pauses before it). The thread lock keeps it to one
 * run at a time; the mailer sends each thread at most once (createOutboxMailer) should two runs
 * reach it anyway (a lock lost mid-run, a re-run after a crash).
 */
export function sendNode(deps: Pick<WorkflowDeps, 'mailer' | 'clock'>) {
  const clock = deps.clock ?? (() => new Date());
  return async (
    state: EmailStateValues,
    config: LangGraphRunnableConfig,
  ): Promise<EmailStateUpdate> => {
    const threadId = String(config.configurable?.thread_id);
    const text = state.reply ?? '';
    const at = clock().toISOString();
    await deps.mailer.send({ thread_id: threadId, text, sent_at: at });
    return { sent: { at, text } };
  };
}

import type { WorkflowDeps } from '../deps.js';
import type { EmailStateUpdate, EmailStateValues } from '../state.js';

/**
 * retrieve — reads `inbound` and `subject`; writes `retrieved`: the help center's passages for the
 * email. It runs beside `classify` when the service has a help center, so a new thread's search
 * takes no time the classification's model call does not already take; `draft` consumes them.
 */
export function retrieveNode(deps: Pick<WorkflowDeps, 'helpCenter'>) {
  return async (state: EmailStateValues): Promise<EmailStateUpdate> => ({
    retrieved: { passages: (await deps.helpCenter?.passagesFor(state)) ?? null },
  });
}

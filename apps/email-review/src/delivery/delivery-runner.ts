import type { Logger } from 'pino';
import type { Delivery } from './delivery.js';
import type { DeliveryOutcome, DeliveryStore } from './delivery-store.js';
import type { MailTransport } from './mail-transport.js';

interface DeliveryRunnerDeps {
  store: DeliveryStore;
  transport: MailTransport;
  logger: Logger;
  clock?: () => Date;
  /** Told each attempt's outcome (the metrics' count), before the store records it. */
  onAttempt?: (status: DeliveryOutcome['status']) => void;
}

/** Commands nodemailer refuses before talking to a server: retrying the same message cannot help. */
const PERMANENT_CODES = new Set(['EENVELOPE', 'EMESSAGE']);

/**
 * Why an attempt failed (the SMTP reply or the connection error, never the message) and whether
 * trying again can help: SMTP 5xx (the recipient or the message refused) is permanent; 4xx, a
 * refused or timed-out connection, and anything else unknown are transient.
 */
function classifyDeliveryFailure(error: unknown) {
  const { code, responseCode, response, message } = Object(error) as Record<string, unknown>;
  const reply = typeof response === 'string' ? response : undefined;
  const smtpCode = typeof code === 'string' ? code : '';
  const text = reply ?? (typeof message === 'string' ? message : String(error));
  return {
    permanent:
      typeof responseCode === 'number' ? responseCode >= 500 : PERMANENT_CODES.has(smtpCode),
    last_error: `${smtpCode ? `${smtpCode}: ` : ''}${text}`.slice(0, 500),
    last_response: reply?.slice(0, 500) ?? null,
  };
}

/**
 * One attempt: accepted → delivered (`logged` without SMTP); transient → queued for the queue's
 * retry, or failed on the last try; permanent → failed.
 */
async function attemptDelivery(
  deps: DeliveryRunnerDeps,
  delivery: Delivery,
  lastTry: boolean,
): Promise<DeliveryOutcome> {
  const now = deps.clock?.() ?? new Date();
  const log = {
    thread_id: delivery.thread_id,
    message_id: delivery.message_id,
    attempt: delivery.attempts + 1,
  };
  try {
    const reply = await deps.transport.send(delivery);
    if (deps.transport.kind === 'log')
      return { status: 'logged', last_response: null, delivered_at: now.toISOString() };
    deps.logger.info(log, 'email delivered');
    return { status: 'delivered', last_response: reply, delivered_at: now.toISOString() };
  } catch (error) {
    const { permanent, ...outcome } = classifyDeliveryFailure(error);
    if (permanent || lastTry) {
      deps.logger.warn({ ...log, reason: outcome.last_error }, 'email delivery failed');
      return { status: 'failed', ...outcome };
    }
    deps.logger.warn({ ...log, reason: outcome.last_error }, 'email delivery deferred');
    return { status: 'queued', ...outcome };
  }
}

/**
 * The instance's delivery worker: one attempt per job the store's queue hands out. A deferred
 * attempt throws once recorded, so that the queue retries the job; nothing else is needed after a
 * crash, since the queue hands a dead worker's job out again.
 */
export function createDeliveryRunner(deps: DeliveryRunnerDeps) {
  return {
    start: () =>
      deps.store.start(async (threadId, lastTry) => {
        const recorded = await deps.store
          .attempt(threadId, async (delivery) => {
            const outcome = await attemptDelivery(deps, delivery, lastTry);
            deps.onAttempt?.(outcome.status);
            return outcome;
          })
          .catch((error: unknown) => {
            deps.logger.warn({ err: error, thread_id: threadId }, 'delivery attempt not recorded');
            throw error;
          });
        if (recorded?.status === 'queued')
          throw new Error(`delivery of thread ${threadId} deferred`);
      }),
    async stop() {
      await deps.store.stop();
      await deps.transport.close();
    },
  };
}

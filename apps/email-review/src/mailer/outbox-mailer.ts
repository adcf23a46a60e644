import type { Logger } from 'pino';
import type { Mailer, OutgoingEmail } from './mailer.js';
import type { Outbox } from './outbox.js';

/** The default delivery: the log line is the "send" (swap in SMTP or a provider API for real mail). */
export function createLogDelivery(logger: Logger): Mailer {
  return {
    async send(email: OutgoingEmail) {
      // Text stays out of the log: it is the customer's correspondence.
      logger.info({ thread_id: email.thread_id, chars: email.text.length }, 'email sent to outbox');
    },
  };
}

/**
 * The mailer the workflow uses. The outbox row (one per thread, first insert wins) is the
 * at-most-once guard: only the run whose insert won hands the message to `delivery`. So even two
 * runs of `send` for one thread (a lock lost mid-run, a re-run after a crash) deliver it once.
 */
export function createOutboxMailer(
  outbox: Outbox,
  logger: Logger,
  delivery: Mailer = createLogDelivery(logger),
): Mailer {
  return {
    async send(email: OutgoingEmail) {
      if (await outbox.record(email)) await delivery.send(email);
      else logger.warn({ thread_id: email.thread_id }, 'email already in outbox; not sent again');
    },
  };
}

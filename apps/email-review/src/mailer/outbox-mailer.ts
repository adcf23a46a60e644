import type { Logger } from 'pino';
import type { Mailer, OutgoingEmail } from './mailer.js';
import type { Outbox } from './outbox.js';

/** The default mailer: records the message in the outbox kept with the threads, and logs it. */
export function createOutboxMailer(outbox: Outbox, logger: Logger): Mailer {
  return {
    async send(email: OutgoingEmail) {
      const recorded = await outbox.record(email);
      // Text stays out of the log: it is the customer's correspondence.
      if (recorded)
        logger.info(
          { thread_id: email.thread_id, chars: email.text.length },
          'email sent to outbox',
        );
      else logger.warn({ thread_id: email.thread_id }, 'email already in outbox; not sent again');
    },
  };
}

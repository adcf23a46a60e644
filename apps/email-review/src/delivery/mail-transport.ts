import type { Logger } from 'pino';
import type { OutgoingMessage } from './delivery.js';

/** Hands a message to the next hop; resolves with the server's reply once it has accepted it. */
export interface MailTransport {
  kind: 'log' | 'smtp';
  send(message: OutgoingMessage): Promise<string>;
  /** Ends the connections; resolves once work begun after a send (a Sent copy) has ended. */
  close(): void | Promise<void>;
}

/** Delivery without SMTP (offline demo, tests): the log line is the delivery. No text is logged. */
export function createLogTransport(logger: Logger): MailTransport {
  return {
    kind: 'log',
    async send(message) {
      const { thread_id, message_id, body } = message;
      logger.info({ thread_id, message_id, chars: body.length }, 'email delivered to the log');
      return 'logged';
    },
    close() {},
  };
}

import MailComposer from 'nodemailer/lib/mail-composer';
import type { Logger } from 'pino';
import type { OutgoingMessage } from '../delivery/delivery.js';
import type { MailTransport } from '../delivery/mail-transport.js';
import { mailOptionsOf } from '../delivery/smtp-transport.js';
import { ensureFolder, withImap, type ImapSettings } from './imap-connection.js';

export type SentFiling = 'filed' | 'failed' | 'no_folder';

/**
 * The transport, filing a copy of each reply SMTP accepted in the mailbox's Sent folder, after
 * `send` answered (a hanging IMAP server must not hold the delivery's transaction open). A copy
 * that cannot be filed is logged and counted, not retried: retrying the job would send the reply
 * twice. `close` waits for the copies still being filed.
 */
export function filedInSent(
  transport: MailTransport,
  options: {
    settings: ImapSettings;
    folder?: string;
    logger: Logger;
    onFiled?: (outcome: SentFiling) => void;
  },
): MailTransport {
  const file = (raw: Buffer) =>
    withImap(options.settings, async (client): Promise<SentFiling> => {
      // IMAP_SENT_FOLDER (created when missing), or the folder with the \Sent special-use flag.
      if (options.folder) await ensureFolder(client, options.folder);
      const folder =
        options.folder ||
        (await client.list()).find((entry) => entry.specialUse === '\\Sent')?.path;
      if (!folder) return 'no_folder';
      return (await client.append(folder, raw, ['\\Seen'])) ? 'filed' : 'failed';
    });
  const filing = new Set<Promise<void>>();
  const fileCopy = async (message: OutgoingMessage) => {
    const log = { thread_id: message.thread_id, message_id: message.message_id };
    const outcome = await new MailComposer({ ...mailOptionsOf(message), date: new Date() })
      .compile()
      .build()
      .then(file)
      .catch((error: unknown) => {
        options.logger.warn(
          { ...log, reason: error instanceof Error ? error.message : String(error) },
          'reply not filed in Sent',
        );
        return 'failed' as const;
      });
    if (outcome === 'no_folder')
      options.logger.warn(log, 'reply not filed: the mailbox has no Sent folder');
    options.onFiled?.(outcome);
  };
  return {
    kind: transport.kind,
    async send(message) {
      const reply = await transport.send(message);
      if (transport.kind !== 'smtp') return reply;
      const copy = fileCopy(message)
        .catch(() => {})
        .finally(() => filing.delete(copy));
      filing.add(copy);
      return reply;
    },
    async close() {
      await Promise.all(filing);
      await transport.close();
    },
  };
}

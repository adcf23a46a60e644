import MailComposer from 'nodemailer/lib/mail-composer';
import type { Logger } from 'pino';
import type { OutgoingMessage } from '../delivery/delivery.js';
import type { MailTransport } from '../delivery/mail-transport.js';
import { mailOptionsOf } from '../delivery/smtp-transport.js';
import type { ImapFlow } from 'imapflow';
import { connectImap, disconnectImap, ensureFolder, type ImapSettings } from './imap-connection.js';

export type SentFiling = 'filed' | 'failed' | 'no_folder';

/** IMAP_SENT_FOLDER (created when missing), or the folder with the \Sent special-use flag. */
async function sentFolder(client: ImapFlow, named?: string) {
  if (!named) return (await client.list()).find((entry) => entry.specialUse === '\\Sent')?.path;
  await ensureFolder(client, named);
  return named;
}

/**
 * The transport, filing each reply in the mailbox's Sent folder once the SMTP server accepted it
 * (so the team sees the exchange in its own mail client). A copy that cannot be filed (IMAP down,
 * no Sent folder) is logged and counted, NOT retried: the delivery job is done once SMTP accepted
 * the message, and running it again would send the customer a second copy. The copy is filed after
 * `send` has answered, so the delivery is recorded at once: an IMAP server that hangs no longer
 * holds the delivery's transaction open (a crash in that time sent the reply again). `close`
 * waits for the copies still being filed.
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
  const file = async (raw: Buffer): Promise<SentFiling> => {
    const client = await connectImap(options.settings);
    try {
      const folder = await sentFolder(client, options.folder);
      if (!folder) return 'no_folder';
      return (await client.append(folder, raw, ['\\Seen'])) ? 'filed' : 'failed';
    } finally {
      await disconnectImap(client);
    }
  };
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

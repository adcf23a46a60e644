import { randomUUID } from 'node:crypto';
import { HttpError, requestContext } from '@repo/http-kit';
import type { ImapFlow } from 'imapflow';
import type { Logger } from 'pino';
import { parseRawEmail, RAW_EMAIL_MAX_BYTES, type InboundEmail } from '../email/raw-email.js';

/** Where a message goes once its thread is committed, and where one that cannot be read goes. */
export interface MailboxFolders {
  /** Unset: the message stays where it is, flagged \Seen. */
  processed?: string;
  quarantine: string;
}

/** Why a message was quarantined, kept on it as a keyword (MOVE keeps flags). */
export const QUARANTINE_REASONS = {
  oversized: '$EmailReviewOversized',
  unreadable: '$EmailReviewUnreadable',
};
type QuarantineReason = keyof typeof QUARANTINE_REASONS;

/**
 * The mailbox's one way into the service: a thread made from a raw message as POST /threads makes
 * it (`created: false` when its Message-ID or key already made one), its draft running in `drafted`.
 */
export type CreateThread = (
  received: InboundEmail,
  idempotencyKey: string | undefined,
  source: 'mime',
) => Promise<{ thread: { thread_id: string }; created: boolean; drafted?: Promise<unknown> }>;

interface TakeMessageDeps {
  client: ImapFlow;
  createThread: CreateThread;
  folders: MailboxFolders;
  logger: Logger;
}

/**
 * One message (by UID, in the open mailbox): a thread through the create path, then flagged or
 * moved; or, when it cannot become a thread, moved to quarantine. Nothing is ever deleted. Throws
 * when the thread could not be committed (the database away): the message is taken again later.
 */
export async function takeMessage(
  deps: TakeMessageDeps,
  message: { uid: number; size: number; uidValidity: string },
): Promise<'thread' | QuarantineReason | 'gone'> {
  const { client, folders, uid } = { ...deps, uid: message.uid };
  if (message.size > RAW_EMAIL_MAX_BYTES) return quarantine(deps, uid, 'oversized');
  const fetched = await client.fetchOne(String(uid), { source: true }, { uid: true });
  if (!fetched || !fetched.source) return 'gone';
  // UnreadableEmail, or MIME mailparser could not take apart: the message is quarantined.
  const received = await parseRawEmail(fetched.source).catch(() => undefined);
  if (!received) return quarantine(deps, uid, 'unreadable');
  // Without a Message-ID, the UID stands in as the key, so a crash's re-read is one thread still.
  const key = received.email.message_id ? undefined : `imap:${message.uidValidity}:${uid}`;
  // Created as POST /threads creates it from a raw message, with `mailbox` as actor.
  const requestId = randomUUID();
  const log = deps.logger.child({ request_id: requestId, imap_uid: uid });
  let created;
  try {
    created = await requestContext.run({ requestId, log, actor: 'mailbox' }, () =>
      deps.createThread(received, key, 'mime'),
    );
  } catch (error) {
    // A message POST /threads would answer 4xx is refused for good: retrying would block the mailbox.
    if (error instanceof HttpError && error.status < 500)
      return quarantine(deps, uid, 'unreadable');
    throw error;
  }
  const { thread } = created;
  deps.logger.info(
    { thread_id: thread.thread_id, imap_uid: uid, created: created.created },
    'mailbox message read',
  );
  const marked = folders.processed
    ? await client.messageMove(String(uid), folders.processed, { uid: true })
    : await client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true });
  refusedUnless(marked, uid, folders.processed ? 'move' : 'flag');
  return 'thread';
}

/** imapflow answers a refused MOVE or STORE with false: the message is not done, so stop here. */
function refusedUnless(done: unknown, uid: number, what: string): void {
  if (!done) throw new Error(`the IMAP server refused to ${what} message ${uid}`);
}

async function quarantine(deps: TakeMessageDeps, uid: number, reason: QuarantineReason) {
  const range = String(uid);
  // The keyword is a courtesy for the list: a server that refuses it still gets the move.
  await deps.client.messageFlagsAdd(range, [QUARANTINE_REASONS[reason]], { uid: true });
  refusedUnless(
    await deps.client.messageMove(range, deps.folders.quarantine, { uid: true }),
    uid,
    'quarantine',
  );
  deps.logger.warn({ imap_uid: uid, reason }, 'mailbox message quarantined');
  return reason;
}

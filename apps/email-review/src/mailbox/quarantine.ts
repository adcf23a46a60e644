import { HttpError } from '@repo/http-kit';
import { z } from 'zod';
import { hasFolder, withImap, type ImapSettings } from './imap-connection.js';
import { QUARANTINE_REASONS } from './take-message.js';

const quarantinedMessageSchema = z.object({
  uid: z.number().int().describe('Its UID in the quarantine folder.'),
  message_id: z.string().nullable(),
  from: z.string().nullable(),
  subject: z.string().nullable(),
  received_at: z.iso.datetime().nullable(),
  size: z.number().int().describe('Bytes.'),
  reason: z
    .enum(['oversized', 'unreadable', 'unknown'])
    .describe(
      '`oversized`: over the raw message limit; `unreadable`: no readable text, or MIME that could not be parsed.',
    ),
});

/** The most messages one listing reads: the newest ones. */
const QUARANTINE_LIST_MAX = 500;

export const quarantineListSchema = z.object({
  folder: z.string(),
  total: z.number().int().describe('Messages in the folder; only the newest 500 are listed.'),
  messages: z.array(quarantinedMessageSchema),
});
export type QuarantineList = z.infer<typeof quarantineListSchema>;

function reasonOf(flags: Set<string> | undefined): 'oversized' | 'unreadable' | 'unknown' {
  if (flags?.has(QUARANTINE_REASONS.oversized)) return 'oversized';
  if (flags?.has(QUARANTINE_REASONS.unreadable)) return 'unreadable';
  return 'unknown';
}

/**
 * The messages in the quarantine folder as it is now (the newest `max`, oldest first), read over a
 * connection of its own.
 */
export function listQuarantine(
  settings: ImapSettings,
  folder: string,
  max = QUARANTINE_LIST_MAX,
): Promise<QuarantineList> {
  return withImap(settings, async (client) => {
    if (!(await hasFolder(client, folder))) return { folder, total: 0, messages: [] };
    const lock = await client.getMailboxLock(folder, { readOnly: true });
    try {
      const exists = client.mailbox ? client.mailbox.exists : 0;
      if (exists === 0) return { folder, total: 0, messages: [] };
      const found = await client.fetchAll(`${Math.max(1, exists - max + 1)}:*`, {
        uid: true,
        flags: true,
        envelope: true,
        size: true,
        internalDate: true,
      });
      return {
        folder,
        total: exists,
        messages: found.map((message) => ({
          uid: message.uid,
          message_id: message.envelope?.messageId ?? null,
          from: message.envelope?.from?.[0]?.address ?? null,
          subject: message.envelope?.subject ?? null,
          received_at: message.internalDate ? new Date(message.internalDate).toISOString() : null,
          size: message.size ?? 0,
          reason: reasonOf(message.flags),
        })),
      };
    } finally {
      lock.release();
    }
  }).catch(() => {
    throw new HttpError(
      503,
      'mailbox_unavailable',
      'The mailbox (IMAP server) cannot be reached.',
      {
        headers: { 'Retry-After': '30' },
      },
    );
  });
}

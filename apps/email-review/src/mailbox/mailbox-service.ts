import type pg from 'pg';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { postgresMailboxState, postgresReaderLock } from './postgres-mailbox.js';
import type { MailTransport } from '../delivery/mail-transport.js';
import type { ImapSettings } from './imap-connection.js';
import { createMailboxReader, type MailboxStatus } from './mailbox-reader.js';
import { mailboxMetrics } from './mailbox-metrics.js';
import { memoryMailboxState, ONLY_READER } from './mailbox-state.js';
import { listQuarantine as listQuarantineFolder, type QuarantineList } from './quarantine.js';
import { filedInSent } from './sent-folder.js';
import type { CreateThread, MailboxFolders } from './take-message.js';

/** IMAP_* settings (src/env.ts). */
export interface MailboxSettings {
  imap: ImapSettings;
  pollMs: number;
  folders: MailboxFolders;
  /** IMAP_SENT_FOLDER; unset: the \Sent special-use folder. */
  sentFolder?: string;
}

const OFF_STATUS: MailboxStatus = { state: 'stopped', read: 0, quarantined: 0, lagSeconds: 0 };

/**
 * The mailbox's parts: the reader (its place and its lock in `database`, or in memory), the
 * Sent-folder filing around the transport, the quarantine list and the metrics. Without settings:
 * nothing, and the transport as it is.
 */
export function mailboxService(options: {
  settings?: MailboxSettings | undefined;
  /** PostgreSQL mode: where the reader keeps its place and takes its lock. */
  database?: { pool: pg.Pool; schema: string; connectionString: string } | undefined;
  createThread: CreateThread;
  logger: Logger;
  registry?: Registry | undefined;
  clock?: (() => Date) | undefined;
}) {
  const { settings, database, logger } = options;
  if (!settings)
    return {
      kind: 'off' as const,
      status: OFF_STATUS,
      transport: (transport: MailTransport) => transport,
      start() {},
      stop: async () => {},
    };
  const reader = createMailboxReader({
    settings,
    createThread: options.createThread,
    state: database ? postgresMailboxState(database.pool, database.schema) : memoryMailboxState(),
    lock: database ? postgresReaderLock(database.connectionString, database.schema) : ONLY_READER,
    logger,
    clock: options.clock,
  });
  const metrics = options.registry && mailboxMetrics(options.registry, reader.status);
  // Requests that come while a listing runs share it: one IMAP connection at most, however many
  // ask (a provider caps an account's connections, and the reader and Sent filing need theirs).
  let listing: Promise<QuarantineList> | undefined;
  const listQuarantine = () =>
    (listing ??= listQuarantineFolder(settings.imap, settings.folders.quarantine).finally(() => {
      listing = undefined;
    }));
  return {
    kind: 'imap' as const,
    status: reader.status,
    transport: (transport: MailTransport) =>
      filedInSent(transport, {
        settings: settings.imap,
        folder: settings.sentFolder,
        logger,
        onFiled: metrics?.onFiled,
      }),
    listQuarantine,
    start: () => reader.start(),
    stop: () => reader.stop(),
  };
}

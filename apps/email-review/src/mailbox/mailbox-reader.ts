import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ImapFlow } from 'imapflow';
import { backoffMs, type Backoff } from '@repo/http-kit';
import type { Logger } from 'pino';
import { ensureFolder, mailboxLabel, mailboxPath, withImap } from './imap-connection.js';
import type { MailboxSettings } from './mailbox-service.js';
import type { HeldReaderLock, MailboxState, ReaderLock } from './mailbox-state.js';
import { takeMessage, type CreateThread } from './take-message.js';

interface MailboxReaderDeps {
  settings: MailboxSettings;
  createThread: CreateThread;
  state: MailboxState;
  lock: ReaderLock;
  logger: Logger;
  clock?: () => Date;
}

/** What /readyz and /metrics say about the mailbox. */
export interface MailboxStatus {
  /** standby: another instance is the reader. */
  state: 'starting' | 'standby' | 'connected' | 'disconnected' | 'stopped';
  read: number;
  quarantined: number;
  /** Age of the oldest message not yet taken (0 when none waits). */
  lagSeconds: number;
}

const RECONNECTS: Backoff = { firstMs: 1_000, maxMs: 30_000 };
/**
 * Drafts the reader's threads may have running at once. It never waits for its own message's
 * draft, but a backlog (a first start on a full mailbox) must not start thousands of model calls.
 */
const MAX_DRAFTS_IN_FLIGHT = 8;

/**
 * The mailbox reader: while this instance holds the reader lock, it takes every message past the
 * last UID done (in UID order, one at a time), then waits for news (IDLE when the server has it,
 * and every pollMs anyway), reconnecting with backoff when the server goes away.
 */
export function createMailboxReader(deps: MailboxReaderDeps) {
  const { imap, folders, pollMs } = deps.settings;
  const mailbox = mailboxPath(imap.url);
  const label = mailboxLabel(imap.url);
  const status: MailboxStatus = { state: 'starting', read: 0, quarantined: 0, lagSeconds: 0 };
  const stopping = new AbortController();
  const stopped = once(stopping.signal, 'abort').then(() => undefined);
  const now = () => deps.clock?.() ?? new Date();
  const drafting = new Set<Promise<unknown>>();
  const createThread: CreateThread = async (...args) => {
    const created = await deps.createThread(...args);
    const draft: Promise<unknown> | undefined = created.drafted
      ?.catch(() => {})
      .finally(() => drafting.delete(draft!));
    if (draft) drafting.add(draft);
    return created;
  };

  async function readNew(client: ImapFlow, reading: AbortSignal): Promise<void> {
    const uidValidity = String(client.mailbox && client.mailbox.uidValidity);
    const last = await deps.state.lastUid(mailbox, uidValidity);
    // `last+1:*` names at least the newest message, even when it is not newer than `last`.
    const listed = await client.fetchAll(
      `${last + 1}:*`,
      { uid: true, size: true, internalDate: true },
      { uid: true },
    );
    const pending = listed.filter((m) => m.uid > last).sort((a, b) => a.uid - b.uid);
    for (const message of pending) {
      // UIDs grow with arrival: this message is the oldest one not taken yet.
      const arrived = message.internalDate ? new Date(message.internalDate).getTime() : undefined;
      status.lagSeconds = arrived ? Math.max(0, (now().getTime() - arrived) / 1000) : 0;
      while (drafting.size >= MAX_DRAFTS_IN_FLIGHT && !stopping.signal.aborted)
        await Promise.race([...drafting, stopped]);
      if (reading.aborted) return;
      const outcome = await takeMessage(
        { client, createThread, folders, logger: deps.logger },
        { uid: message.uid, size: message.size ?? 0, uidValidity },
      );
      if (outcome === 'thread') status.read += 1;
      else if (outcome !== 'gone') status.quarantined += 1;
      await deps.state.markDone(mailbox, uidValidity, message.uid);
    }
    status.lagSeconds = 0;
  }

  /** Resolves at the next sign of new mail, after pollMs at most, or when the connection ends. */
  function nextChange(client: ImapFlow, end: Promise<void>): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, pollMs);
      function done() {
        clearTimeout(timer);
        client.off('exists', done);
        resolve();
      }
      client.on('exists', done);
      void end.then(done);
      // The next command (the fetch) ends the IDLE.
      if (client.capabilities.has('IDLE')) client.idle().catch(() => {});
    });
  }

  const readWhileConnected = (held: HeldReaderLock, reading: AbortSignal) =>
    withImap(imap, async (client) => {
      const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
      const end = Promise.race([closed, held.lost, stopped]);
      await ensureFolder(client, folders.quarantine);
      if (folders.processed) await ensureFolder(client, folders.processed);
      const lock = await client.getMailboxLock(mailbox);
      try {
        status.state = 'connected';
        deps.logger.info(
          { mailbox: label, idle: client.capabilities.has('IDLE') },
          'mailbox connected',
        );
        while (!reading.aborted) {
          await readNew(client, reading);
          await nextChange(client, end);
          if (!client.usable && !reading.aborted) throw new Error('the IMAP connection closed');
        }
      } finally {
        lock.release();
      }
    });

  async function readWhileHeld(held: HeldReaderLock) {
    const lost = new AbortController();
    const reading = AbortSignal.any([stopping.signal, lost.signal]);
    void held.lost.then(() => {
      lost.abort();
      deps.logger.warn({ mailbox: label }, 'mailbox reader lock lost; reading stops');
    });
    let failures = 0;
    while (!reading.aborted) {
      try {
        await readWhileConnected(held, reading);
        failures = 0;
      } catch (error) {
        status.state = 'disconnected';
        const reason = error instanceof Error ? error.message : String(error);
        const backoff = backoffMs(RECONNECTS, (failures += 1));
        deps.logger.warn({ mailbox: label, reason, retry_ms: backoff }, 'mailbox unavailable');
        await sleep(backoff, undefined, { signal: reading }).catch(() => {});
      }
    }
  }

  async function run() {
    while (!stopping.signal.aborted) {
      status.state = 'standby';
      const held = await deps.lock.acquire(stopping.signal);
      if (!held) break;
      deps.logger.info({ mailbox: label }, 'this instance reads the mailbox');
      try {
        await readWhileHeld(held);
      } finally {
        await held.release();
      }
    }
    status.state = 'stopped';
  }

  let running: Promise<void> | undefined;
  return {
    status,
    start() {
      running ??= run().catch((error: unknown) =>
        deps.logger.error({ err: error }, 'mailbox reader stopped'),
      );
    },
    async stop() {
      stopping.abort();
      await running;
    },
  };
}

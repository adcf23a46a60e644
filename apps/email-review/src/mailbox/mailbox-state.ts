/**
 * Where the reader is in each mailbox: the last UID it finished with, per UIDVALIDITY (a new
 * UIDVALIDITY starts again at 0; dedup by Message-ID keeps the re-read from making threads twice).
 */
export interface MailboxState {
  lastUid(mailbox: string, uidValidity: string): Promise<number>;
  /** Called only once the message's thread is committed (and the message flagged or moved). */
  markDone(mailbox: string, uidValidity: string, uid: number): Promise<void>;
}

/**
 * One reader at a time: `acquire` waits until this instance is the reader (or `signal` aborts:
 * undefined). `lost` settles if the hold ends by itself (the database connection went), and then
 * another instance may already be reading.
 */
export interface ReaderLock {
  acquire(signal: AbortSignal): Promise<HeldReaderLock | undefined>;
}

export interface HeldReaderLock {
  lost: Promise<void>;
  release(): Promise<void>;
}

/** Memory mode: the process is the only reader, and its place in the mailbox ends with it. */
export function memoryMailboxState(): MailboxState {
  const done = new Map<string, number>();
  return {
    async lastUid(mailbox, uidValidity) {
      return done.get(`${uidValidity}:${mailbox}`) ?? 0;
    },
    async markDone(mailbox, uidValidity, uid) {
      const key = `${uidValidity}:${mailbox}`;
      done.set(key, Math.max(done.get(key) ?? 0, uid));
    },
  };
}

export const ONLY_READER: ReaderLock = {
  async acquire(signal) {
    return signal.aborted ? undefined : { lost: new Promise(() => {}), release: async () => {} };
  },
};

/** One message of a session as GET /sessions/{id} shows it. */
export interface Turn {
  role: 'user' | 'assistant';
  /** The agent that answered; null for the user's own messages. */
  agent: string | null;
  text: string;
  ticket_id?: string;
  at: string;
}

interface SessionRecord {
  readonly id: string;
  readonly turns: Turn[];
  /** Characters of text in `turns`, kept up to date so the budget check costs nothing. */
  chars: number;
  lastUsedAt: number;
}

export interface SessionRegistryOptions {
  ttlMs: number;
  maxSessions: number;
  /** Messages kept per session for GET /sessions/{id}; the oldest go first. */
  maxTurnsPerSession: number;
  /**
   * Characters of message text kept per session; the oldest turns go first, but the latest
   * turn is always kept whole. Bounds a session's memory whatever the length of its messages.
   */
  maxTranscriptChars: number;
  clock: () => number;
  /** Whether a session has turns running or waiting; such a session is never evicted. */
  inUse: (sessionId: string) => boolean;
  /** Called for every session dropped (evicted or deleted), to drop its ADK session too. */
  onRemove: (sessionId: string) => void;
}

/**
 * The sessions the service knows, with their transcripts, in least-recently-used order (a Map
 * keeps insertion order; a used session is re-inserted at the end). Sessions idle for longer than
 * the TTL are evicted, and beyond `maxSessions` the least recently used go first, so memory stays
 * flat however many sessions clients open.
 */
export class SessionRegistry {
  private readonly records = new Map<string, SessionRecord>();

  constructor(private readonly options: SessionRegistryOptions) {}

  get size(): number {
    return this.records.size;
  }

  /** Counts a session as used now, creating it when unknown (or expired). */
  touch(sessionId: string): { created: boolean } {
    const now = this.options.clock();
    this.evictExpired(now);
    let record = this.records.get(sessionId);
    const created = !record;
    if (record) this.records.delete(sessionId);
    else record = { id: sessionId, turns: [], chars: 0, lastUsedAt: now };
    record.lastUsedAt = now;
    this.records.set(sessionId, record);
    this.evictOverflow(sessionId);
    return { created };
  }

  /** Appends the messages of a finished turn; the end of a turn counts as the latest use. */
  record(sessionId: string, turns: Turn[]): void {
    const record = this.records.get(sessionId);
    if (!record) return;
    record.turns.push(...turns);
    record.chars += textLength(turns);
    this.trimTranscript(record, turns.length);
    record.lastUsedAt = this.options.clock();
    this.records.delete(sessionId);
    this.records.set(sessionId, record);
    this.evictOverflow(sessionId);
  }

  /** The transcript, or undefined for an unknown or expired session. Reading is not a use. */
  turnsOf(sessionId: string): readonly Turn[] | undefined {
    this.evictExpired(this.options.clock());
    return this.records.get(sessionId)?.turns;
  }

  delete(sessionId: string): boolean {
    if (!this.records.delete(sessionId)) return false;
    this.options.onRemove(sessionId);
    return true;
  }

  /** Drops sessions idle for longer than the TTL; returns how many. */
  evictExpired(now = this.options.clock()): number {
    let evicted = 0;
    for (const record of this.records.values()) {
      // LRU order: the first session used within the TTL ends the sweep.
      if (now - record.lastUsedAt <= this.options.ttlMs) break;
      if (this.options.inUse(record.id)) continue;
      this.remove(record);
      evicted += 1;
    }
    return evicted;
  }

  /**
   * Drops the oldest messages beyond either cap, never any of the `latest` just recorded, and
   * never leaves a reply without the message it answered at the head of the transcript.
   */
  private trimTranscript(record: SessionRecord, latest: number): void {
    const { maxTurnsPerSession, maxTranscriptChars } = this.options;
    const droppable = record.turns.length - latest;
    let drop = 0;
    let chars = record.chars;
    const overCap = () =>
      record.turns.length - drop > maxTurnsPerSession || chars > maxTranscriptChars;
    const orphanReply = () => record.turns[drop]?.role === 'assistant';
    while (drop < droppable && (overCap() || orphanReply())) {
      chars -= record.turns[drop]!.text.length;
      drop += 1;
    }
    if (drop === 0) return;
    record.turns.splice(0, drop);
    record.chars = chars;
  }

  /** Evicts least recently used sessions beyond the cap, sparing `current` and those in use. */
  private evictOverflow(current: string): void {
    if (this.records.size <= this.options.maxSessions) return;
    for (const record of this.records.values()) {
      if (this.records.size <= this.options.maxSessions) return;
      if (record.id !== current && !this.options.inUse(record.id)) this.remove(record);
    }
  }

  private remove(record: SessionRecord): void {
    this.records.delete(record.id);
    this.options.onRemove(record.id);
  }
}

function textLength(turns: readonly Turn[]): number {
  return turns.reduce((sum, turn) => sum + turn.text.length, 0);
}

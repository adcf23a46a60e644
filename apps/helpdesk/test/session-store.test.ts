import {
  InMemorySessionService,
  type CreateSessionRequest,
  type DeleteSessionRequest,
  type Session,
} from '@google/adk';
import { SessionStore } from '../src/sessions/session-store.js';
import type { Turn } from '../src/sessions/transcript.js';
import { ManualClock } from './support/harness.js';

/** ADK's own in-memory service, noting which sessions the store creates and deletes. */
class RecordingSessionService extends InMemorySessionService {
  readonly created: string[] = [];
  readonly deleted: string[] = [];

  override async createSession(request: CreateSessionRequest): Promise<Session> {
    this.created.push(request.sessionId ?? '');
    return super.createSession(request);
  }

  override async deleteSession(request: DeleteSessionRequest): Promise<void> {
    this.deleted.push(request.sessionId);
    await super.deleteSession(request);
  }

  exists(sessionId: string) {
    return this.getSession({ appName: 'app', userId: 'user', sessionId });
  }
}

function store(
  options: {
    ttlMs?: number;
    maxSessions?: number;
    maxTurnsPerSession?: number;
    maxTranscriptChars?: number;
    maxQueuedPerSession?: number;
  } = {},
) {
  const clock = new ManualClock();
  const sessionService = new RecordingSessionService();
  const sessions = new SessionStore({
    sessionService,
    appName: 'app',
    userId: 'user',
    ttlMs: options.ttlMs ?? 1_000,
    maxSessions: options.maxSessions ?? 10,
    maxQueuedPerSession: options.maxQueuedPerSession ?? 32,
    transcript: {
      maxTurns: options.maxTurnsPerSession ?? 100,
      maxChars: options.maxTranscriptChars ?? 1_000_000,
    },
    clock: clock.read,
  });
  const use = (id: string) => sessions.runTurn(id, async () => undefined);
  const record = (id: string, turns: Turn[]) =>
    sessions.runTurn(id, async (transcript) => transcript.append(turns));
  return { sessions, clock, sessionService, use, record };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Lets deletions queued by an eviction run. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

const turn = (text: string): Turn => ({
  role: 'user',
  agent: null,
  text,
  at: new Date(0).toISOString(),
});

const reply = (text: string): Turn => ({
  role: 'assistant',
  agent: 'billing',
  text,
  at: new Date(0).toISOString(),
});

const textOf = (turns: readonly Turn[] | undefined) => (turns ?? []).map((t) => t.text);

describe('SessionStore: bounds', () => {
  it('when a session is used the first time, then it is created, and not the second time', async () => {
    const { sessions, sessionService, use } = store();
    await use('a');
    await use('a');

    expect(sessionService.created).toEqual(['a']);
    expect(await sessionService.exists('a')).toBeDefined();
    expect(sessions.turnsOf('a')).toEqual([]);
  });

  it('when sessions expire, then the sweep removes them and tells the ADK side', async () => {
    const { sessions, clock, sessionService, use } = store({ ttlMs: 1_000 });
    await use('old');
    clock.advance(600);
    await use('young');
    clock.advance(600);

    expect(sessions.evictExpired()).toBe(1);
    await settled();

    expect(sessionService.deleted).toEqual(['old']);
    expect(await sessionService.exists('old')).toBeUndefined();
    expect(sessions.turnsOf('young')).toEqual([]);
  });

  it('when an expired session is used again, then it starts afresh after its ADK session is gone', async () => {
    const { sessions, clock, sessionService, record } = store({ ttlMs: 1_000 });
    await record('a', [turn('before')]);
    clock.advance(1_001);

    expect(sessions.turnsOf('a')).toBeUndefined();
    await record('a', [turn('after')]);

    expect(sessionService.deleted).toEqual(['a']);
    expect(await sessionService.exists('a')).toBeDefined();
    expect(textOf(sessions.turnsOf('a'))).toEqual(['after']);
  });

  it('when a session has a turn running or waiting, then neither TTL nor LRU evicts it', async () => {
    const { sessions, clock, sessionService, use } = store({ ttlMs: 1_000, maxSessions: 1 });
    const gate = deferred();
    const busy = sessions.runTurn('busy', () => gate.promise);
    await settled();
    clock.advance(5_000);

    await use('other');
    expect(sessions.evictExpired()).toBe(0);
    await settled();

    expect(sessionService.deleted).toEqual([]);
    expect(sessions.count()).toBe(2);
    gate.resolve();
    await busy;
    await use('third');
    await settled();
    // The end of busy's turn counts as its latest use: other is the least recently used.
    expect(sessionService.deleted).toEqual(['other', 'busy']);
    expect(sessions.count()).toBe(1);
  });

  it('when a transcript grows past its cap, then the oldest messages go', async () => {
    const { sessions, record } = store({ maxTurnsPerSession: 3 });

    await record('a', [turn('1'), turn('2')]);
    await record('a', [turn('3'), turn('4')]);

    expect(sessions.turnsOf('a')?.map((t) => t.text)).toEqual(['2', '3', '4']);
  });

  it('when a transcript grows past its character budget, then the oldest exchanges go, whole', async () => {
    const { sessions, record } = store({ maxTranscriptChars: 100 });

    await record('a', [turn('q1'.padEnd(30, '.')), reply('a1'.padEnd(30, '.'))]);
    await record('a', [turn('q2'.padEnd(20, '.')), reply('a2'.padEnd(20, '.'))]);
    await record('a', [turn('q3'.padEnd(20, '.')), reply('a3'.padEnd(20, '.'))]);

    // 140 characters in all: dropping q1 alone would do, but a1 goes with it.
    expect(textOf(sessions.turnsOf('a')).map((t) => t.slice(0, 2))).toEqual([
      'q2',
      'a2',
      'q3',
      'a3',
    ]);
  });

  it('when the latest exchange alone is over the character budget, then it is still kept', async () => {
    const { sessions, record } = store({ maxTranscriptChars: 10 });

    await record('a', [turn('old'), reply('old reply')]);
    await record('a', [turn('x'.repeat(50)), reply('y'.repeat(50))]);

    expect(textOf(sessions.turnsOf('a'))).toEqual(['x'.repeat(50), 'y'.repeat(50)]);
  });

  it('when 20 000 sessions are opened with a cap of 1 000, then 1 000 are kept', async () => {
    const { sessions, sessionService, use } = store({ maxSessions: 1_000, ttlMs: 3_600_000 });

    for (let i = 0; i < 20_000; i += 1) await use(`s-${i}`);
    await settled();

    expect(sessions.count()).toBe(1_000);
    expect(sessionService.deleted).toHaveLength(19_000);
    expect(sessionService.deleted[0]).toBe('s-0');
    expect(sessions.turnsOf('s-19999')).toEqual([]);
  });

  it('when a session is deleted, then it is gone and the ADK side is told', async () => {
    const { sessions, sessionService, use } = store();
    await use('a');

    await sessions.delete('a');
    await sessions.delete('a');

    expect(sessionService.deleted).toEqual(['a', 'a']);
    expect(await sessionService.exists('a')).toBeUndefined();
    expect(sessions.turnsOf('a')).toBeUndefined();
    expect(sessions.count()).toBe(0);
  });
});

describe('SessionStore: one turn at a time per session', () => {
  it('when turns share a session, then each starts only after the previous one settled', async () => {
    const { sessions } = store();
    const log: string[] = [];
    const gate = deferred();

    const first = sessions.runTurn('s', async () => {
      log.push('first started');
      await gate.promise;
      log.push('first done');
    });
    const second = sessions.runTurn('s', async () => {
      log.push('second started');
    });
    await settled();
    expect(log).toEqual(['first started']);
    expect(sessions.queued('s')).toBe(2);

    gate.resolve();
    await Promise.all([first, second]);

    expect(log).toEqual(['first started', 'first done', 'second started']);
  });

  it('when turns are of different sessions, then they run at the same time', async () => {
    const { sessions } = store();
    const gate = deferred();
    let otherRan = false;

    const blocked = sessions.runTurn('a', () => gate.promise);
    await sessions.runTurn('b', async () => {
      otherRan = true;
    });

    expect(otherRan).toBe(true);
    gate.resolve();
    await blocked;
  });

  it('when a turn fails, then its caller gets the error and the next turn still runs', async () => {
    const { sessions } = store();

    const failing = sessions.runTurn('s', async () => {
      throw new Error('boom');
    });
    const next = sessions.runTurn('s', async () => 'ran');

    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ran');
  });

  it('when too many turns wait on a session, then the next is refused with 429 session_busy', async () => {
    const { sessions } = store({ maxQueuedPerSession: 2 });
    const gate = deferred();
    const running = [
      sessions.runTurn('s', () => gate.promise),
      sessions.runTurn('s', async () => undefined),
    ];

    await expect(sessions.runTurn('s', async () => undefined)).rejects.toMatchObject({
      status: 429,
      code: 'session_busy',
    });
    gate.resolve();
    await Promise.all(running);
  });

  it('when a session has no more work, then the store forgets its lock', async () => {
    const { sessions } = store();

    await sessions.runTurn('s', async () => undefined);
    await settled();

    expect(sessions.queued('s')).toBe(0);
    expect((sessions as unknown as { busy: Map<string, unknown> }).busy.size).toBe(0);
  });
});

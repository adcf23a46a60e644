import { SessionRegistry, type Turn } from '../src/sessions/session-registry.js';
import { ManualClock } from './support/harness.js';

function registry(
  options: {
    ttlMs?: number;
    maxSessions?: number;
    maxTurnsPerSession?: number;
    maxTranscriptChars?: number;
    inUse?: Set<string>;
  } = {},
) {
  const clock = new ManualClock();
  const removed: string[] = [];
  const inUse = options.inUse ?? new Set<string>();
  const sessions = new SessionRegistry({
    ttlMs: options.ttlMs ?? 1_000,
    maxSessions: options.maxSessions ?? 10,
    maxTurnsPerSession: options.maxTurnsPerSession ?? 100,
    maxTranscriptChars: options.maxTranscriptChars ?? 1_000_000,
    clock: clock.read,
    inUse: (id) => inUse.has(id),
    onRemove: (id) => removed.push(id),
  });
  return { sessions, clock, removed, inUse };
}

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

describe('SessionRegistry', () => {
  it('when a session is touched the first time, then it is created, and not the second time', () => {
    const { sessions } = registry();

    expect(sessions.touch('a')).toEqual({ created: true });
    expect(sessions.touch('a')).toEqual({ created: false });
  });

  it('when sessions expire, then the sweep removes them and tells the ADK side', () => {
    const { sessions, clock, removed } = registry({ ttlMs: 1_000 });
    sessions.touch('old');
    clock.advance(600);
    sessions.touch('young');
    clock.advance(600);

    expect(sessions.evictExpired()).toBe(1);

    expect(removed).toEqual(['old']);
    expect(sessions.turnsOf('young')).toEqual([]);
  });

  it('when a session has a turn running or waiting, then neither TTL nor LRU evicts it', () => {
    const inUse = new Set(['busy']);
    const { sessions, clock, removed } = registry({ ttlMs: 1_000, maxSessions: 1, inUse });
    sessions.touch('busy');
    clock.advance(5_000);

    sessions.touch('other');

    expect(removed).toEqual([]);
    expect(sessions.size).toBe(2);
    inUse.clear();
    sessions.touch('third');
    expect(removed).toEqual(['busy', 'other']);
  });

  it('when a transcript grows past its cap, then the oldest messages go', () => {
    const { sessions } = registry({ maxTurnsPerSession: 3 });
    sessions.touch('a');

    sessions.record('a', [turn('1'), turn('2')]);
    sessions.record('a', [turn('3'), turn('4')]);

    expect(sessions.turnsOf('a')?.map((t) => t.text)).toEqual(['2', '3', '4']);
  });

  it('when a transcript grows past its character budget, then the oldest exchanges go, whole', () => {
    const { sessions } = registry({ maxTranscriptChars: 100 });
    sessions.touch('a');

    sessions.record('a', [turn('q1'.padEnd(30, '.')), reply('a1'.padEnd(30, '.'))]);
    sessions.record('a', [turn('q2'.padEnd(20, '.')), reply('a2'.padEnd(20, '.'))]);
    sessions.record('a', [turn('q3'.padEnd(20, '.')), reply('a3'.padEnd(20, '.'))]);

    // 140 characters in all: dropping q1 alone would do, but a1 goes with it.
    expect(textOf(sessions.turnsOf('a')).map((t) => t.slice(0, 2))).toEqual([
      'q2',
      'a2',
      'q3',
      'a3',
    ]);
  });

  it('when the latest exchange alone is over the character budget, then it is still kept', () => {
    const { sessions } = registry({ maxTranscriptChars: 10 });
    sessions.touch('a');

    sessions.record('a', [turn('old'), reply('old reply')]);
    sessions.record('a', [turn('x'.repeat(50)), reply('y'.repeat(50))]);

    expect(textOf(sessions.turnsOf('a'))).toEqual(['x'.repeat(50), 'y'.repeat(50)]);
  });

  it('when 20 000 sessions are opened with a cap of 1 000, then 1 000 are kept', () => {
    const { sessions, removed } = registry({ maxSessions: 1_000, ttlMs: 3_600_000 });

    for (let i = 0; i < 20_000; i += 1) sessions.touch(`s-${i}`);

    expect(sessions.size).toBe(1_000);
    expect(removed).toHaveLength(19_000);
    expect(removed[0]).toBe('s-0');
    expect(sessions.turnsOf('s-19999')).toEqual([]);
  });

  it('when a session is deleted, then it is gone and the ADK side is told', () => {
    const { sessions, removed } = registry();
    sessions.touch('a');

    expect(sessions.delete('a')).toBe(true);
    expect(sessions.delete('a')).toBe(false);
    expect(removed).toEqual(['a']);
    expect(sessions.turnsOf('a')).toBeUndefined();
  });
});

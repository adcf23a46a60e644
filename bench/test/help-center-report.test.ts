import { helpCenterSection, helpCenterTargets } from '../src/report/help-center-section.js';
import type { HelpCenterResult, HelpCenterRound } from '../src/scenarios/results.js';

const round = (draftOn: number, messageOn: number, lifecyclesOn: number): HelpCenterRound => ({
  draftP50: { on: draftOn, off: 20 },
  messageP50: { on: messageOn, off: 30 },
  lifecyclesPerSecond: { on: lifecyclesOn, off: 100 },
});

const result = (memory: HelpCenterRound[]): HelpCenterResult => ({
  scenario: 11,
  articles: 10_000,
  loadMs: { memory: 9_000, postgres: 60_000 },
  drafts: 40,
  chats: 20,
  lifecycles: 200,
  concurrency: 8,
  rounds: { memory, postgres: [round(22, 31, 97), round(23, 32, 95), round(21, 33, 99)] },
  searches: {
    memory: { email: { count: 200, within5ms: 150, meanMs: 3.2 } },
    postgres: {},
  },
  commands: [],
});

describe('scenario 11 in the report', () => {
  test('when the help center adds at most 5 ms (median of the rounds) and keeps 90 % of the lifecycles/s, then every target is met', () => {
    const targets = helpCenterTargets(
      result([round(24, 31, 92), round(26, 30, 91), round(23, 36, 95)]),
    );
    expect(targets).toHaveLength(6);
    expect(targets.every((target) => target.met)).toBe(true);
    expect(targets[0]!.measured).toBe('median 4.0 ms of 3 rounds (4.0, 6.0, 3.0)');
  });

  test('when the median added time is over 5 ms or the share under 90 %, then those targets are missed with the shortfall', () => {
    const targets = helpCenterTargets(
      result([round(27, 31, 85), round(26, 30, 91), round(28, 36, 80)]),
    );
    expect(targets.slice(0, 3)).toEqual([
      expect.objectContaining({ met: false, shortfall: '2.0 ms' }),
      expect.objectContaining({ met: true }),
      expect.objectContaining({ met: false, shortfall: '5.0 percentage points' }),
    ]);
  });

  test('when laid out, then each mode has a table of medians: without, with, added (or the share)', () => {
    const section = helpCenterSection(
      result([round(24, 31, 92), round(26, 30, 91), round(23, 36, 95)]),
    );
    expect(section.tables).toHaveLength(2);
    expect(section.tables[0]!.rows).toEqual([
      ['draft p50 (POST /threads)', 20, 24, 4],
      ['chat message p50 (POST /chat)', 30, 31, 1],
      ['lifecycles/s at concurrency 8', 100, 92, 92],
    ]);
    const withCpu = helpCenterSection(
      result(
        [round(24, 31, 92), round(26, 30, 91), round(23, 36, 95)].map((r, i) => ({
          ...r,
          lifecycleCpuMs: { on: 10 + i, off: 9 },
        })),
      ),
    );
    expect(withCpu.tables[0]!.rows[3]).toEqual([
      'email-review CPU per lifecycle at concurrency 8',
      9,
      11,
      2,
    ]);
    expect(section.notes[0]).toContain(
      'email-review 75 % of 200 searches within 5 ms, mean 3.2 ms',
    );
    expect(section.notes[1]).toContain('email-review no searches in /metrics');
  });
});

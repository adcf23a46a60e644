import type { ProfileSummary } from '../src/profile/cpu-profile.js';
import { judgeTargets, renderReport } from '../src/report/render-report.js';
import { profileKey, type BenchReport, type ScenarioOutcome } from '../src/report/report-model.js';
import type { ScenarioResult } from '../src/scenarios/results.js';
import {
  emailLifecycleResult,
  frameworkPatchesResult,
  growthResult,
  guidelinesResult,
  helpdeskSessionsResult,
  helpdeskChatResult,
  providerOverheadResult,
  streamingResult,
  a2aChatResult,
} from './support/results-fixture.js';

function report(results: ScenarioResult[], extra: ScenarioOutcome[] = []): BenchReport {
  return {
    startedAt: '2026-11-23T01:08:40.173Z',
    durationMs: 60_000,
    command: 'jest',
    scale: 'full',
    machine: { cores: '2 × test', node: 'v20' },
    scenarios: [
      ...results.map((result) => ({ id: result.scenario, result, profiles: {} })),
      ...extra,
    ],
  };
}

const ALL = () => [
  emailLifecycleResult(),
  helpdeskChatResult(),
  providerOverheadResult(),
  growthResult(),
  frameworkPatchesResult(),
  helpdeskSessionsResult(),
  streamingResult(),
];

describe('scenario 3 targets: the services’ own part over the frameworks alone', () => {
  it('when the service adds at most 1.5 ms p50 over its framework alone, then the target is met and the total is shown beside it', () => {
    const targets = judgeTargets(providerOverheadResult());
    const email = targets.find((t) => t.target.startsWith('email-review, sequential'));
    expect(email).toMatchObject({ met: true });
    expect(email?.measured).toBe(
      '1.0 ms over (added time p50 3.0 ms, p99 6.0 ms; frameworks alone p50 2.0 ms)',
    );
  });

  it('when the service adds more than 1.5 ms p50 over its framework alone, then the target is missed by the excess, with a profile asked for', () => {
    const targets = judgeTargets(providerOverheadResult());
    const helpdesk = targets.find((t) =>
      t.target.startsWith('helpdesk, concurrency 8, arrivals spread'),
    );
    expect(helpdesk).toMatchObject({ met: false, shortfall: '0.5 ms' });
    expect(helpdesk?.profileRequest).toMatchObject({
      service: 'helpdesk',
      concurrency: 8,
      latencyMs: 300,
    });
  });

  it('when a sequential target is missed, then the explanation splits the added time and names the frameworks alone', () => {
    const result = providerOverheadResult({
      email: 5,
      emailAlone: 2,
      helpdesk: 9,
      helpdeskAlone: 7.3,
    });
    const email = judgeTargets(result).find((t) => t.target.startsWith('email-review, sequential'));
    expect(email).toMatchObject({ met: false, shortfall: '1.5 ms' });
    expect(email?.explanation).toContain('LangGraph and the openai SDK alone');
  });

  it('when the service misses by less than 0.05 ms, then the excess and the shortfall show two decimals', () => {
    const result = providerOverheadResult({
      email: 3,
      emailAlone: 2,
      helpdesk: 9.83,
      helpdeskAlone: 8.3,
    });
    const helpdesk = judgeTargets(result).find((t) => t.target.startsWith('helpdesk, sequential'));
    expect(helpdesk).toMatchObject({ met: false, shortfall: '0.03 ms' });
    expect(helpdesk?.measured).toMatch(/^1\.53 ms over/);
  });

  it('when the runs are sequential, spread and a burst, then only sequential and spread are judged, for both services', () => {
    const targets = judgeTargets(providerOverheadResult());
    expect(targets.map((t) => t.target.split(':')[0])).toEqual([
      'email-review, sequential',
      'helpdesk, sequential',
      'email-review, concurrency 8, arrivals spread',
      'helpdesk, concurrency 8, arrivals spread',
    ]);
  });
});

describe('scenario 3: the helpdesk behind a bare node:http server', () => {
  const withBareHttp = () =>
    providerOverheadResult(
      { email: 3, emailAlone: 2, helpdesk: 9.1, helpdeskAlone: 7.3, helpdeskBareHttp: 7.9 },
      { email: 2.6, emailAlone: 2.4, helpdesk: 4.7, helpdeskAlone: 1.9, helpdeskBareHttp: 2.5 },
    );

  it('when it was measured, then a table splits the added time over ADK alone into HTTP between processes and the service’s own', () => {
    const { markdown } = renderReport(report([withBareHttp()]), 'c.svg');
    expect(markdown).toContain(
      "**The helpdesk's added time over ADK alone, split: HTTP between processes, and the service's own (p50, ms)**",
    );
    expect(markdown).toContain('| sequential · chat message | 7.3 | 7.9 | 9.1 | 0.6 | 1.2 |');
    expect(markdown).toContain(
      '| concurrency 8, arrivals spread · chat message | 1.9 | 2.5 | 4.7 | 0.6 | 2.2 |',
    );
  });

  it('when it was measured, then the helpdesk is judged over it rather than over ADK alone', () => {
    const sequential = judgeTargets(withBareHttp()).find((t) =>
      t.target.startsWith('helpdesk, sequential'),
    );
    // 9.1 − 7.9 = 1.2 ms over the bare server (met); over ADK alone it would be 1.8 ms (missed).
    expect(sequential).toMatchObject({ met: true });
    expect(sequential?.target).toContain(
      'over ADK and @google/genai behind a bare node:http server',
    );
    expect(sequential?.measured).toMatch(
      /^1\.2 ms over .*; ADK behind a bare node:http server p50 7\.9 ms\)$/,
    );
  });

  it('when the helpdesk misses its target, then the explanation gives the same split', () => {
    const spread = judgeTargets(withBareHttp()).find((t) =>
      t.target.startsWith('helpdesk, concurrency 8, arrivals spread'),
    );
    expect(spread).toMatchObject({ met: false });
    expect(spread?.explanation).toContain(
      'Of the 2.8 ms over ADK alone at p50, 0.6 ms is HTTP between two processes',
    );
    expect(spread?.explanation).toContain("and 2.2 ms the service's own request handling");
  });

  it('when it was not measured (an older result), then there is no such table', () => {
    const { markdown } = renderReport(report([providerOverheadResult()]), 'c.svg');
    expect(markdown).not.toContain('ADK behind a bare node:http server');
  });
});

describe('ratio targets judged on the median of three runs', () => {
  const postgresTarget = (shares: number[]) =>
    judgeTargets(emailLifecycleResult(shares)).find((t) => t.target.startsWith('PostgreSQL'));

  it('when one of three runs falls short but the median reaches 70 %, then the target is met and all three values are shown', () => {
    expect(postgresTarget([0.66, 0.78, 0.71])).toMatchObject({
      met: true,
      measured: 'median 71 % of 3 runs (66 %, 78 %, 71 %)',
    });
  });

  it('when the median of three runs is below 70 %, then the target is missed by the median’s shortfall', () => {
    expect(postgresTarget([0.66, 0.8, 0.68])).toMatchObject({
      met: false,
      shortfall: '2.0 percentage points',
    });
  });

  it('when PostgreSQL uses more than 1.5× memory mode’s CPU per lifecycle, then that target is missed by the excess', () => {
    const cpuTarget = (postgresCpu: number) => {
      const result = emailLifecycleResult();
      result.runs.concurrent8.memory.cpuMsPerIteration = 4;
      result.runs.concurrent8.postgres.cpuMsPerIteration = postgresCpu;
      return judgeTargets(result).find((t) => t.target.startsWith("PostgreSQL's CPU"));
    };
    expect(cpuTarget(5.6)).toMatchObject({ met: true, measured: '1.40× (5.6 vs 4.0 ms)' });
    expect(cpuTarget(7)).toMatchObject({ met: false, shortfall: '0.25× over' });
  });

  it('when the report is rendered, then the three paired runs are in their own table', () => {
    const { markdown } = renderReport(report([emailLifecycleResult([0.7, 0.78, 0.76])]), 'c.svg');
    expect(markdown).toContain('| run 1 (the table above) | 100.0 | 70.0 | 70.0 |');
    expect(markdown).toContain('| run 3 | 100.0 | 76.0 | 76.0 |');
  });
});

describe('webhooks judged against the floor', () => {
  const result = (subscribed: number[]): ScenarioResult => ({
    scenario: 10,
    concurrency: 8,
    lifecycles: 100,
    rounds: { none: [50, 50, 50], subscribed, floor: [45, 44, 46] },
    drainMs: { none: [1, 1, 1], subscribed: [100, 110, 120], floor: [10, 12, 11] },
    delivered: { none: 0, subscribed: 900, floor: 900 },
  });

  it('when one endpoint keeps 95 % of the floor’s lifecycles/s, then the target is met, the share of none shown beside it', () => {
    const [target] = judgeTargets(result([43, 42, 44]));
    expect(target).toMatchObject({ met: true });
    // Rounds: 43/45, 42/44, 44/46 → median 95.6 %; of none: 86 %.
    expect(target?.measured).toMatch(/^95\.6 % .*of none subscribed: 86\.0 %/);
  });

  it('when it keeps less, then the target is missed by the median’s shortfall', () => {
    const [target] = judgeTargets(result([40, 40, 41]));
    expect(target).toMatchObject({ met: false });
    expect(target?.shortfall).toBe('5.9 percentage points below 95 %');
  });
});

describe('the throughput chart', () => {
  it('when scenarios 1 and 2 ran, then the SVG has one series per system, each with a point per concurrency', () => {
    const { chartSvg } = renderReport(report(ALL()), 'latest-throughput.svg');
    const systems = [...(chartSvg ?? '').matchAll(/class="series" data-system="([^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(systems).toEqual([
      'email-review (memory)',
      'email-review (PostgreSQL)',
      'LangGraph dev server',
      'helpdesk',
      'adk api_server',
    ]);
    expect(chartSvg?.match(/<circle /g)).toHaveLength(5 * 3);
    expect(chartSvg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  });

  it('when only scenario 2 ran, then the chart has the helpdesk and its peer only', () => {
    const { chartSvg } = renderReport(report([helpdeskChatResult()]), 'c.svg');
    expect(chartSvg?.match(/class="series"/g)).toHaveLength(2);
  });

  it('when neither scenario 1 nor 2 ran, then there is no chart and no link to one', () => {
    const rendered = renderReport(report([growthResult()]), 'c.svg');
    expect(rendered.chartSvg).toBeUndefined();
    expect(rendered.markdown).not.toContain('c.svg');
  });

  it('when the report opens, then the chart is linked before anything else', () => {
    const { markdown } = renderReport(report(ALL()), 'latest-throughput.svg');
    const lines = markdown.split('\n');
    expect(lines[0]).toMatch(/^# Benchmarks/);
    expect(lines[2]).toMatch(/^!\[.*\]\(latest-throughput\.svg\)$/);
  });
});

describe('scenario 12: learned guidelines', () => {
  it('when choosing adds at most 2 ms and the approvals at most 1 ms (medians of the rounds), then every target is met and listed at a glance', () => {
    const { sections, markdown } = renderReport(report([guidelinesResult()]), 'c.svg');
    const targets = sections[0]!.targets;
    expect(targets).toHaveLength(6);
    expect(targets.every((t) => t.met)).toBe(true);
    expect(targets[0]!.measured).toBe('median 0.50 ms of 3 rounds (0.25, 0.50, 0.75)');
    for (const target of targets)
      expect(markdown).toContain(`| 12 | ${target.target} | ${target.measured} | met |`);
  });

  it('when choosing adds more than 2 ms or an approval more than 1 ms, then those targets are missed by the excess', () => {
    const targets = judgeTargets(guidelinesResult([2.5, 1.9, 2.8], [1.2, 1.6, 0.8]));
    expect(targets.slice(0, 3)).toEqual([
      expect.objectContaining({ met: false, shortfall: '0.50 ms' }),
      expect.objectContaining({ met: false, shortfall: '0.20 ms' }),
      expect.objectContaining({ met: true }),
    ]);
  });

  it('when laid out, then each mode has a table of medians (none, with, added) and notes how many guidelines the drafts carried', () => {
    const { sections } = renderReport(report([guidelinesResult()]), 'c.svg');
    const section = sections[0]!;
    expect(section.tables.map((t) => t.title)).toEqual([
      'memory: 5,000 guidelines stored in 0.4 s; p50s, medians of 3 rounds',
      'PostgreSQL: 5,000 guidelines stored in 21.0 s; p50s, medians of 3 rounds',
    ]);
    expect(section.tables[0]!.rows[0]).toEqual(['draft (POST /threads)', 20, 20.5, 0.5]);
    expect(section.notes[0]).toContain(
      'carried 8.0 guidelines on average with them stored, 0.0 with none',
    );
  });
});

describe('scenario 7 targets: the streamed first event and done', () => {
  it('when the agent event comes after one call and done after three, then both targets are met', () => {
    expect(judgeTargets(streamingResult(312, 930)).map((t) => t.met)).toEqual([true, true]);
  });

  it('when the first event waits for the whole turn, then the first-event target is missed by the difference', () => {
    const [firstEvent, done] = judgeTargets(streamingResult(930, 935));

    expect(firstEvent).toMatchObject({ met: false, measured: '930 ms', shortfall: '530 ms' });
    expect(done?.met).toBe(true);
  });
});

describe('the markdown report', () => {
  it('when every scenario has a result, then every table and every target is in the markdown, and each target is in the summary', () => {
    const rendered = renderReport(report(ALL()), 'c.svg');
    expect(rendered.sections.map((s) => s.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    for (const section of rendered.sections) {
      for (const table of section.tables) expect(rendered.markdown).toContain(`**${table.title}**`);
      for (const target of section.targets)
        expect(rendered.markdown).toContain(
          `| ${section.id} | ${target.target} | ${target.measured} |`,
        );
    }
    expect(rendered.sections.flatMap((s) => s.targets)).toHaveLength(4 + 1 + 4 + 3 + 2 + 2 + 2);
  });

  it('when a missed target was profiled, then its profile is rendered under it', () => {
    const result = emailLifecycleResult([0.6, 0.6, 0.6]);
    const request = judgeTargets(result).find((t) => !t.met)?.profileRequest;
    const profile: ProfileSummary = {
      busyMs: 1234,
      byPlace: [{ name: 'pg', percent: 12.5 }],
      inclusiveByPlace: [{ name: 'pg', percent: 30 }],
      topFunctions: [{ name: 'writev', percent: 9 }],
    };
    const rendered = renderReport(
      report([], [{ id: 1, result, profiles: { [profileKey(request!)]: profile } }]),
      'c.svg',
    );
    expect(rendered.markdown).toContain(
      "Profile (`node --cpu-prof` on the project's service after a warm-up, 200 lifecycles at concurrency 8, postgres mode; 1234 ms busy CPU). Self time by place: pg 12.5 %.",
    );
  });

  it('when a scenario failed, then its section says so and the others still render', () => {
    const rendered = renderReport(
      report([helpdeskChatResult()], [{ id: 3, title: 'Overhead', error: 'emulator down' }]),
      'c.svg',
    );
    expect(rendered.markdown).toContain('## 3. Overhead — FAILED');
    expect(rendered.markdown).toContain('- The scenario failed: emulator down');
    expect(rendered.markdown).toContain('## 2. Helpdesk chat');
  });
});

describe('scenario 5: what each framework patch buys', () => {
  const result = frameworkPatchesResult;

  it('when a patch raises throughput by 2 % or more (medians), then it is kept; less, then the report says to remove it', () => {
    const targets = judgeTargets(result());
    expect(targets.map((t) => [t.target.split(' ')[0], t.met, t.measured])).toEqual([
      ['pg-named-statements', true, '10.0 % (110.00 vs 100.00 lifecycles/s without it)'],
      [
        'langgraph-checkpoint-postgres-one-row-checkpoints',
        false,
        '0.9 % (110.00 vs 109.00 lifecycles/s without it)',
      ],
    ]);
    expect(targets[1]?.shortfall).toMatch(/remove the patch/);
  });

  it('when rendered, then each variant shows every round, its median and the gain, with the library version it was checked against', () => {
    const { markdown } = renderReport(report([result()]), 'chart.svg');
    // Not in the register (a removed patch): its label has no version to show.
    expect(markdown).toContain('| pg-named-statements off | 90.0 |');
    expect(markdown).toContain(
      '| every patch on (as shipped) | 120.0 | 100.0 | 110.0 | 110.0 | n/a |',
    );
    expect(markdown).toContain(
      '| langgraph-checkpoint-postgres-one-row-checkpoints off (@langchain/langgraph-checkpoint-postgres@1.0.5) | 109.0 | 110.0 | 108.0 | 109.0 | 0.9 |',
    );
  });
});

describe('scenario 9: A2A against POST /chat', () => {
  const target = (shares: number[]) => judgeTargets(a2aChatResult(shares))[0];

  it('when A2A reaches 90 % of POST /chat in the median round, then the target is met', () => {
    expect(target([0.95, 0.88, 0.92])).toMatchObject({
      met: true,
      measured: 'median 92 % of 3 runs (95 %, 88 %, 92 %)',
    });
  });

  it('when the median round is below 90 %, then the target is missed and the table shows each round', () => {
    expect(target([0.85, 0.8, 0.95])).toMatchObject({ met: false });
    const { markdown } = renderReport(report([a2aChatResult([0.85, 0.8, 0.95])]), 'c.svg');
    expect(markdown).toContain('\n## 9. ');
    expect(markdown).toContain('| round 2 | 40.0 | 32.0 | 0.8 |');
  });
});

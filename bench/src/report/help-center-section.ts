import {
  HELP_CENTER_MODES,
  type HelpCenterMode,
  type HelpCenterResult,
  type HelpCenterRound,
  type KbSearchStats,
} from '../scenarios/results.js';
import { median } from '../stats/percentiles.js';
import type { Section, TargetCheck } from './report-model.js';
import { medianShareAtLeast } from './targets.js';

/** The most a help center may add to a draft's and to a chat message's p50 (ms). */
export const MAX_ADDED_MS = 5;
/** Email lifecycles/s with the help center, as a share of without. */
export const MIN_THROUGHPUT_SHARE = 0.9;

const MODE_LABELS: Record<HelpCenterMode, string> = {
  memory: 'memory',
  postgres: 'PostgreSQL',
};

const added = (rounds: HelpCenterRound[], of: 'draftP50' | 'messageP50') =>
  rounds.map((round) => round[of].on - round[of].off);

function addedAtMost(target: string, differences: number[]): TargetCheck {
  const value = median(differences);
  const met = value <= MAX_ADDED_MS;
  return {
    target,
    measured: `median ${value.toFixed(1)} ms of ${differences.length} rounds (${differences.map((d) => d.toFixed(1)).join(', ')})`,
    met,
    ...(met ? {} : { shortfall: `${(value - MAX_ADDED_MS).toFixed(1)} ms` }),
  };
}

export function helpCenterTargets(result: HelpCenterResult): TargetCheck[] {
  const articles = result.articles.toLocaleString('en-US');
  return HELP_CENTER_MODES.filter((mode) => result.rounds[mode].length > 0).flatMap((mode) => {
    const rounds = result.rounds[mode];
    const label = MODE_LABELS[mode];
    return [
      addedAtMost(
        `${label}: ${articles} articles add at most ${MAX_ADDED_MS} ms to a draft's p50 (POST /threads, sequential)`,
        added(rounds, 'draftP50'),
      ),
      addedAtMost(
        `${label}: ${articles} articles add at most ${MAX_ADDED_MS} ms to a chat message's p50 (a help center question, sequential)`,
        added(rounds, 'messageP50'),
      ),
      medianShareAtLeast(
        `${label}: email lifecycles/s at concurrency ${result.concurrency} with the help center ≥ ${100 * MIN_THROUGHPUT_SHARE} % of without`,
        rounds.map((round) => round.lifecyclesPerSecond.on / round.lifecyclesPerSecond.off),
        MIN_THROUGHPUT_SHARE,
      ),
    ];
  });
}

const searchNote = (service: string, stats: KbSearchStats | undefined) =>
  stats
    ? `${service} ${((100 * stats.within5ms) / stats.count).toFixed(0)} % of ${stats.count} searches within 5 ms, mean ${stats.meanMs.toFixed(1)} ms`
    : `${service} no searches in /metrics`;

export function helpCenterSection(result: HelpCenterResult): Section {
  const tables = HELP_CENTER_MODES.filter((mode) => result.rounds[mode].length > 0).map((mode) => {
    const rounds = result.rounds[mode];
    // Each column's median over the rounds: without, with, and added (or the share).
    const row = (label: string, pick: (round: HelpCenterRound) => [number, number, number]) => {
      const values = rounds.map(pick);
      return [label, ...[0, 1, 2].map((i) => median(values.map((v) => v[i]!)))];
    };
    return {
      title: `${MODE_LABELS[mode]}: ${result.articles.toLocaleString('en-US')} articles loaded in ${(result.loadMs[mode] / 1000).toFixed(1)} s; medians of ${rounds.length} rounds`,
      columns: ['', 'without (ms or /s)', 'with (ms or /s)', 'added (ms) or share (%)'],
      rows: [
        row('draft p50 (POST /threads)', (r) => [
          r.draftP50.off,
          r.draftP50.on,
          r.draftP50.on - r.draftP50.off,
        ]),
        row('chat message p50 (POST /chat)', (r) => [
          r.messageP50.off,
          r.messageP50.on,
          r.messageP50.on - r.messageP50.off,
        ]),
        row(`lifecycles/s at concurrency ${result.concurrency}`, (r) => [
          r.lifecyclesPerSecond.off,
          r.lifecyclesPerSecond.on,
          (100 * r.lifecyclesPerSecond.on) / r.lifecyclesPerSecond.off,
        ]),
        ...(rounds.every((r) => r.lifecycleCpuMs)
          ? [
              row(`email-review CPU per lifecycle at concurrency ${result.concurrency}`, (r) => [
                r.lifecycleCpuMs!.off,
                r.lifecycleCpuMs!.on,
                r.lifecycleCpuMs!.on - r.lifecycleCpuMs!.off,
              ]),
            ]
          : []),
      ],
    };
  });
  return {
    id: 11,
    title: 'Help center at 10,000 articles',
    tables,
    notes: [
      ...HELP_CENTER_MODES.filter((mode) => result.rounds[mode].length > 0).map(
        (mode) =>
          `${MODE_LABELS[mode]}, the services' own timing of their searches (/metrics, warm-up included): ${searchNote('email-review', result.searches[mode].email)}; ${searchNote('helpdesk', result.searches[mode].helpdesk)}.`,
      ),
      `email-review and the helpdesk as deployed (child processes), each with KB_DIR (a folder of ${result.articles.toLocaleString('en-US')} articles: the 20 samples and generated ones) and without a help center, the emulator answering at once. In PostgreSQL email-review loads the folder into a schema the helpdesk shares (KB_SCHEMA), analyzed after the load. Per round, each variant taking turns (first in every other round): ${result.drafts} sequential drafts (the p50 of POST /threads: classify, retrieve, draft), ${result.chats} sequential help center questions (the p50 of POST /chat, one message per session; the agent searches the help center, or finds nothing without one) and ${result.lifecycles} lifecycles at concurrency ${result.concurrency}. The added time is judged on the median of the rounds' differences of p50s, the throughput on the median of the rounds' ratios.${result.warmLifecycles ? ` Before the first round each email-review ran ${result.warmLifecycles} lifecycles at concurrency ${result.concurrency}, unmeasured, so that both are compared warm.` : ''}`,
    ],
    targets: helpCenterTargets(result),
    commands: result.commands,
  };
}

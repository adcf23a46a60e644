import {
  GUIDELINE_MODES,
  type GuidelineMode,
  type GuidelinesResult,
  type GuidelinesRound,
} from '../scenarios/results.js';
import { median } from '../stats/percentiles.js';
import type { Section, TargetCheck } from './report-model.js';

/** The most choosing a draft's guidelines may add to its p50 (ms). */
export const MAX_DRAFT_ADDED_MS = 2;
/**
 * "Approve's latency unchanged": the approvals' p50 with the guidelines stored at most this much
 * over none (ms). The approve reads no guideline; this is the rounds' noise it may show.
 */
export const MAX_APPROVE_ADDED_MS = 1;

const MODE_LABELS: Record<GuidelineMode, string> = {
  memory: 'memory',
  postgres: 'PostgreSQL',
};

type Measure = 'draftP50' | 'approveP50' | 'editedApproveP50';

const added = (rounds: GuidelinesRound[], of: Measure) =>
  rounds.map((round) => round[of].with - round[of].none);

function addedAtMost(target: string, differences: number[], bound: number): TargetCheck {
  const value = median(differences);
  const met = value <= bound;
  return {
    target,
    measured: `median ${value.toFixed(2)} ms of ${differences.length} rounds (${differences.map((d) => d.toFixed(2)).join(', ')})`,
    met,
    ...(met ? {} : { shortfall: `${(value - bound).toFixed(2)} ms` }),
  };
}

const measuredModes = (result: GuidelinesResult) =>
  GUIDELINE_MODES.filter((mode) => result.rounds[mode].length > 0);

export function guidelinesTargets(result: GuidelinesResult): TargetCheck[] {
  const guidelines = result.guidelines.toLocaleString('en-US');
  return measuredModes(result).flatMap((mode) => {
    const rounds = result.rounds[mode];
    const label = MODE_LABELS[mode];
    return [
      addedAtMost(
        `${label}: choosing among ${guidelines} guidelines adds at most ${MAX_DRAFT_ADDED_MS} ms to a draft's p50 (POST /threads, sequential)`,
        added(rounds, 'draftP50'),
        MAX_DRAFT_ADDED_MS,
      ),
      addedAtMost(
        `${label}: an approval's p50 unchanged with ${guidelines} guidelines (at most ${MAX_APPROVE_ADDED_MS} ms over none, unedited)`,
        added(rounds, 'approveP50'),
        MAX_APPROVE_ADDED_MS,
      ),
      addedAtMost(
        `${label}: an edited approval's p50 (it queues a derivation) unchanged with ${guidelines} guidelines (at most ${MAX_APPROVE_ADDED_MS} ms over none)`,
        added(rounds, 'editedApproveP50'),
        MAX_APPROVE_ADDED_MS,
      ),
    ];
  });
}

export function guidelinesSection(result: GuidelinesResult): Section {
  const guidelines = result.guidelines.toLocaleString('en-US');
  const tables = measuredModes(result).map((mode) => {
    const rounds = result.rounds[mode];
    // Each column's median over the rounds: none, with, and the median of the differences.
    const row = (label: string, of: Measure) => [
      label,
      median(rounds.map((r) => r[of].none)),
      median(rounds.map((r) => r[of].with)),
      median(added(rounds, of)),
    ];
    return {
      title: `${MODE_LABELS[mode]}: ${guidelines} guidelines stored in ${(result.seedMs[mode] / 1000).toFixed(1)} s; p50s, medians of ${rounds.length} rounds`,
      columns: ['', 'none (ms)', `${guidelines} guidelines (ms)`, 'added (ms)'],
      rows: [
        row('draft (POST /threads)', 'draftP50'),
        row('approve, unedited', 'approveP50'),
        row('approve, edited (queues a derivation)', 'editedApproveP50'),
      ],
    };
  });
  return {
    id: 12,
    title: `Learned guidelines at ${guidelines}`,
    tables,
    notes: [
      ...measuredModes(result).map(
        (mode) =>
          `${MODE_LABELS[mode]}: the measured drafts' prompts carried ${result.perDraft[mode].with.toFixed(1)} guidelines on average with them stored, ${result.perDraft[mode].none.toFixed(1)} with none (the threads' records); ${result.derivations[mode].with} and ${result.derivations[mode].none} derivations recorded from the edited approvals.`,
      ),
      `email-review in this process over HTTP, the emulator answering at once, with ${guidelines} guidelines stored through its own guideline store (as a derivation records them: four per domain over many domains, one per sender for some senders, some per category, a few for everyone) and with none. Per round, sequentially: ${result.drafts} drafts on each variant from senders with guidelines of every scope (the p50 of POST /threads: classify, choose the guidelines, draft), each approved unedited (the p50 of approve), then ${result.drafts} drafts on each from another domain edited and approved (the p50 of that approve, which queues a derivation; the next round starts once all are recorded). The variants take turns lifecycle by lifecycle, the same email to both, each first in every other pair, so the machine's changing load weighs on both alike. Judged on the median of the rounds' differences of p50s; "unchanged" is at most ${MAX_APPROVE_ADDED_MS} ms over none.`,
    ],
    targets: guidelinesTargets(result),
    commands: [],
  };
}

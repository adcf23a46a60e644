import { FRAMEWORK_PATCHES } from '@repo/http-kit';
import type { FrameworkPatchesResult, PatchMeasure } from '../scenarios/results.js';
import { median } from '../stats/percentiles.js';
import type { Section, Table, TargetCheck } from './report-model.js';

/** A patch is kept only while it buys at least this much (medians of the rounds). */
export const MIN_PATCH_GAIN = 0.02;

function label(patch: string | null): string {
  if (patch === null) return 'every patch on (as shipped)';
  const known = FRAMEWORK_PATCHES.find((entry) => entry.id === patch);
  return `${patch} off${known ? ` (${known.library}@${known.version})` : ''}`;
}

interface PatchGain {
  patch: string;
  shipped: number;
  without: number;
  /** What the patch buys: throughput with it over throughput without it, less one. */
  gain: number;
}

/** Throughput with every patch on against throughput with one off. */
function gains(runs: PatchMeasure[]): PatchGain[] {
  const shipped = median(runs.find((run) => run.patch === null)?.rounds ?? []);
  return runs.flatMap((run) => {
    if (run.patch === null) return [];
    const without = median(run.rounds);
    const gain = shipped / without - 1;
    return [{ patch: run.patch, shipped, without, gain }];
  });
}

function table(title: string, unit: string, runs: PatchMeasure[], found: PatchGain[]): Table {
  const rounds = Math.max(...runs.map((run) => run.rounds.length));
  return {
    title,
    columns: [
      'variant',
      ...Array.from({ length: rounds }, (_, i) => `round ${i + 1} (${unit})`),
      `median (${unit})`,
      'gain of the patch (%)',
    ],
    rows: runs.map((run) => {
      const gain = found.find((g) => g.patch === run.patch);
      return [label(run.patch), ...run.rounds, median(run.rounds), gain ? 100 * gain.gain : 'n/a'];
    }),
  };
}

function target(gain: PatchGain, unit: string): TargetCheck {
  const met = gain.gain >= MIN_PATCH_GAIN;
  return {
    target: `${gain.patch} still pays for itself: gain ≥ ${100 * MIN_PATCH_GAIN} %`,
    measured: `${(100 * gain.gain).toFixed(1)} % (${gain.shipped.toFixed(2)} vs ${gain.without.toFixed(2)} ${unit} without it)`,
    met,
    ...(met
      ? {}
      : {
          shortfall: `${(100 * (MIN_PATCH_GAIN - gain.gain)).toFixed(1)} percentage points: remove the patch unless a rerun shows its gain`,
        }),
  };
}

/** Scenario 5: the gain of each speed patch, as the register in docs/framework-patches.md quotes it. */
export function frameworkPatchesTargets(result: FrameworkPatchesResult): TargetCheck[] {
  return gains(result.email.runs).map((g) => target(g, 'lifecycles/s'));
}

export function frameworkPatchesSection(result: FrameworkPatchesResult): Section {
  const emailGains = gains(result.email.runs);
  return {
    id: 5,
    title: 'Framework patches',
    tables: [
      table(
        `email-review: graph on its PostgreSQL checkpointer, ${result.email.lifecycles} lifecycles at concurrency ${result.email.concurrency} per round`,
        'lifecycles/s',
        result.email.runs,
        emailGains,
      ),
    ],
    notes: [
      `In the bench process, with the emulator answering at once, so only the frameworks and the patched code are timed. Each variant switches one patch off; variants take turns round by round. The helpdesk's patches exist for function rather than speed (the Gemini base URL and call policy) and are not measured here: switched off, the service no longer works as specified. Its tool declarations are built once per tool by a FunctionTool subclass through ADK's \`_getDeclaration\` (an extension point, not a patch); an earlier prototype patch that cached them was removed when this scenario showed no gain (6.5 vs 6.3 ms per message without it).`,
    ],
    targets: frameworkPatchesTargets(result),
    commands: [],
  };
}

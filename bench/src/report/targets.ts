import { median } from '../stats/percentiles.js';
import type { ProfileRequest, TargetCheck } from './report-model.js';

/** A ratio of two rates that must reach `goal` (×), shown with `decimals`. */
export function ratioAtLeast(
  target: string,
  value: number,
  { goal, decimals }: { goal: number; decimals: number },
  profileRequest?: ProfileRequest,
): TargetCheck {
  const met = value >= goal;
  return {
    target,
    measured: `${value.toFixed(decimals)}×`,
    met,
    ...(met
      ? {}
      : {
          shortfall: `${(goal - value).toFixed(decimals)}× (${(100 * (1 - value / goal)).toFixed(0)} %)`,
          profileRequest,
        }),
  };
}

/**
 * A share (0–1) that must reach `goal`, judged on the median of several runs: on a shared 2-core
 * machine one run of two rates swings by more than the margin the target leaves.
 */
export function medianShareAtLeast(target: string, shares: number[], goal: number): TargetCheck {
  const value = median(shares);
  const pct = (x: number) => `${(100 * x).toFixed(0)} %`;
  const met = value >= goal;
  return {
    target,
    measured:
      shares.length > 1
        ? `median ${pct(value)} of ${shares.length} runs (${shares.map(pct).join(', ')})`
        : pct(value),
    met,
    ...(met ? {} : { shortfall: `${(100 * (goal - value)).toFixed(1)} percentage points` }),
  };
}

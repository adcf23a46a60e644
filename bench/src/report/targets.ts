import type { ProfileRequest, TargetCheck } from './report-model.js';

/** A ratio of two rates that must reach `goal` (×). */
export function ratioAtLeast(
  target: string,
  value: number,
  goal: number,
  decimals: number,
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
          ...(profileRequest ? { profileRequest } : {}),
        }),
  };
}

import { Counter, Histogram, type Registry } from 'prom-client';

/** A service's names (and help texts) for its help center metrics. */
export interface HelpCenterMetricNames {
  /** Histogram: how long a search took. */
  searchSeconds: { name: string; help: string };
  /** Counter of answers (drafts, replies) by `label`: whether they cite a retrieved article. */
  answers: { name: string; help: string; label: string };
  /** Counter: citations removed from answers, their article not retrieved for them. */
  citationsRemoved: { name: string; help: string };
}

/** Search latency, answers by grounding, citations removed; registered nowhere without `registry`. */
export function helpCenterMetrics(registry: Registry | undefined, names: HelpCenterMetricNames) {
  const registers = registry ? [registry] : [];
  const searches = new Histogram({
    ...names.searchSeconds,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  const { label } = names.answers;
  const answers = new Counter({
    name: names.answers.name,
    help: names.answers.help,
    labelNames: [label],
    registers,
  });
  const removed = new Counter({ ...names.citationsRemoved, registers });
  return {
    /** Times a search. */
    timed: async <T>(search: () => Promise<T>): Promise<T> => {
      const end = searches.startTimer();
      try {
        return await search();
      } finally {
        end();
      }
    },
    /** Counts an answer under its `label` value, and the citations removed from it. */
    observeAnswer: (grounding: string, citationsRemoved: number) => {
      answers.inc({ [label]: grounding });
      if (citationsRemoved > 0) removed.inc(citationsRemoved);
    },
  };
}

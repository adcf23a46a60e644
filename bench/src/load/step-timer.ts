/** Times named steps of an iteration (e.g. create, get, approve) and keeps every sample. */
export class StepTimer {
  readonly samples = new Map<string, number[]>();

  /** `afterStep` runs (and is awaited) after each timed step, outside the measured time. */
  constructor(private readonly afterStep?: (step: string) => Promise<void>) {}

  async time<T>(step: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const result = await work();
    this.record(step, performance.now() - started);
    await this.afterStep?.(step);
    return result;
  }

  record(step: string, ms: number): void {
    const list = this.samples.get(step);
    if (list) list.push(ms);
    else this.samples.set(step, [ms]);
  }

  of(step: string): number[] {
    return this.samples.get(step) ?? [];
  }
}

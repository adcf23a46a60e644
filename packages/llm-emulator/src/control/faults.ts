import { z } from 'zod';

export type Provider = 'openai' | 'gemini';

const match = {
  provider: z.enum(['openai', 'gemini', 'any']).default('any'),
  count: z.number().int().positive().default(1),
  model: z.string().min(1).optional(),
  /** Matches when the request path contains this text, e.g. ":streamGenerateContent" or "/v1/chat/completions". */
  path: z.string().min(1).optional(),
};

export const faultSpecSchema = z.discriminatedUnion('kind', [
  z.object({
    ...match,
    kind: z.literal('status'),
    status: z.number().int().min(400).max(599),
    retryAfterSeconds: z.number().min(0).optional(),
  }),
  z.object({ ...match, kind: z.literal('delay'), delayMs: z.number().int().min(0) }),
  z.object({ ...match, kind: z.literal('hang') }),
  z.object({ ...match, kind: z.literal('disconnect') }),
  z.object({ ...match, kind: z.literal('malformed') }),
  /** A 200 whose (non-streamed) message content is exactly `content`: odd model output, e.g. lone surrogates. */
  z.object({ ...match, kind: z.literal('content'), content: z.string() }),
]);

/** A fault as callers write it (provider defaults to "any", count to 1). */
export type FaultSpec = z.input<typeof faultSpecSchema>;
export type Fault = z.output<typeof faultSpecSchema>;

export interface FaultTarget {
  provider: Provider;
  path: string;
  model: string | undefined;
}

/** Faults waiting to hit the next matching requests, in the order they were added. */
export class FaultQueue {
  private faults: Array<Fault & { remaining: number }> = [];

  add(spec: FaultSpec): Fault {
    const fault = faultSpecSchema.parse(spec);
    this.faults.push({ ...fault, remaining: fault.count });
    return fault;
  }

  clear(): void {
    this.faults = [];
  }

  list(): Fault[] {
    return this.faults.map(({ remaining, ...fault }) => ({ ...fault, count: remaining }));
  }

  /** Consumes one use of the first fault matching the request, if any. */
  take(target: FaultTarget): Fault | undefined {
    if (this.faults.length === 0) return undefined;
    const i = this.faults.findIndex(
      (f) =>
        (f.provider === 'any' || f.provider === target.provider) &&
        (f.model === undefined || f.model === target.model) &&
        (f.path === undefined || target.path.includes(f.path)),
    );
    const fault = this.faults[i];
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults.splice(i, 1);
    return fault;
  }
}

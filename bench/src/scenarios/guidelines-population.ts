import { setImmediate as nextTurn } from 'node:timers/promises';
import { CATEGORIES, type createEmailReview } from 'email-review';
import { seededRandom } from './help-center-articles.js';

/** The service's guideline store, as createEmailReview hands it out (memory or PostgreSQL). */
export type GuidelineStore = ReturnType<typeof createEmailReview>['guidelines']['store'];
type LearnedRule = Parameters<GuidelineStore['learn']>[1][number];

const GREETINGS = ['Hello', 'Dear', 'Good morning', 'Hey', 'Good afternoon', 'Greetings'];
const LABELS = [
  'order reference',
  'account number',
  'contract id',
  'ticket number',
  'customer number',
  'purchase order number',
  'site code',
  'tenant id',
];
const SIGN_OFFS = ['Kind regards', 'Best wishes', 'Warm regards', 'Many thanks', 'Sincerely'];
const TEAMS = ['Support Team', 'Customer Care', 'the Billing Desk', 'Account Services', 'Ops'];
const VERBS = ['Mention', 'Explain', 'Offer', 'Point to', 'Confirm', 'Avoid promising', 'Link'];
const OBJECTS = [
  'the status page',
  'the annual plan discount',
  'a call with their account manager',
  'the data export tool',
  'the invoice portal',
  'the two-factor reset form',
  'the service level agreement',
  'the refund timeline',
  'the migration guide',
  'the on-call phone number',
  'the security whitepaper',
  'the quarterly roadmap',
];
const CONDITIONS = [
  'when an outage is reported',
  'before quoting prices',
  'for renewals',
  'when they ask about seats',
  'when a payment failed',
  'if they mention a deadline',
  'for first-time customers',
  'when the reply is long',
  'if they ask twice',
  'in the first paragraph',
  'at the end of the reply',
];

const pick = <T>(random: () => number, list: readonly T[]): T =>
  list[Math.floor(random() * list.length)]!;

/**
 * Guidelines as reviewers would teach them over time, spread over many scopes: four per domain over
 * `domains` domains (80 %), one per sender for `senders` senders (10 %), the rest by category (8 %)
 * and for everyone (2 %). Sender `s` is `customer<s>@company<s>.test`: a draft from one of them falls
 * under a sender, a domain, a category and the global scope, each holding guidelines.
 */
export class GuidelinePopulation {
  readonly domains: number;
  readonly senders: number;
  private readonly categoryRules: number;
  private readonly globalRules: number;

  constructor(readonly total: number) {
    this.domains = Math.max(1, Math.floor((0.8 * total) / 4));
    this.senders = Math.max(1, Math.min(this.domains, Math.round(0.1 * total)));
    this.globalRules = Math.max(1, Math.round(0.02 * total));
    this.categoryRules = Math.max(1, total - 4 * this.domains - this.senders - this.globalRules);
  }

  /** The address of sender `s` (taken modulo the senders). */
  sender(s: number): string {
    const n = s % this.senders;
    return `customer${n}@company${n}.test`;
  }

  /** The rules to store, in a seeded order; more than `total`, since a few repeat a stored one. */
  *rules(): Generator<LearnedRule> {
    const random = seededRandom(12);
    const policy = () =>
      `${pick(random, VERBS)} ${pick(random, OBJECTS)} ${pick(random, CONDITIONS)}`;
    for (let d = 0; d < this.domains; d += 1) {
      const scope = { kind: 'domain' as const, value: `company${d}.test` };
      yield { scope, rule: `Greet the customer as '${pick(random, GREETINGS)} <name>'` };
      yield { scope, rule: `Include the ${pick(random, LABELS)}` };
      yield { scope, rule: `Sign off with '${pick(random, SIGN_OFFS)}, ${pick(random, TEAMS)}'` };
      yield { scope, rule: policy() };
    }
    for (let s = 0; s < this.senders; s += 1)
      yield { scope: { kind: 'sender', value: this.sender(s) }, rule: policy() };
    // Within a category or the global scope a new rule may repeat a stored one (and join it), so
    // these draw until their count is reached.
    for (;;) {
      const c = Math.floor(random() * (this.categoryRules + this.globalRules));
      yield c < this.categoryRules
        ? { scope: { kind: 'category', value: CATEGORIES[c % CATEGORIES.length]! }, rule: policy() }
        : { scope: { kind: 'global', value: null }, rule: policy() };
    }
  }
}

/**
 * Stores the population's guidelines through the service's own store (`learn`, as a derivation job
 * records what it learned), `workers` at a time, until `total` distinct ones are stored; each cites
 * a seed thread. Returns how many are stored.
 */
export async function storeGuidelines(
  store: GuidelineStore,
  population: GuidelinePopulation,
  tag: string,
  workers: number,
): Promise<number> {
  const rules = population.rules();
  const base = Date.parse('2026-01-01T00:00:00Z');
  let stored = 0;
  let inFlight = 0;
  let tries = 0;
  const worker = async () => {
    while (stored + inFlight < population.total) {
      if (tries > 2 * population.total)
        throw new Error(`scenario 12: only ${stored} distinct guidelines after ${tries} tries`);
      const n = tries++;
      const learned = rules.next().value as LearnedRule;
      const at = new Date(base + n * 60_000).toISOString();
      const source = { thread_id: `${tag}-seed-${n}`, revision: 2, actor: 'bench-seed', at };
      inFlight += 1;
      try {
        const [guideline] = await store.learn(
          `${tag}-seed-${n}`,
          [learned],
          { ...source, kind: 'edited' },
          at,
        );
        // A rule that repeats a stored one joins it (its sources grow): not a new guideline.
        if (guideline?.sources.length === 1) stored += 1;
      } finally {
        inFlight -= 1;
      }
      // The memory store answers without I/O: let the process's sockets and timers run in between.
      await nextTurn();
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return stored;
}

import { z } from 'zod';
import type { Transaction } from '../persistence/transaction.js';

/** Why a reviewer rejected a draft (the reject body's `reason`). */
export const REJECT_REASONS = [
  'wrong_facts',
  'wrong_tone',
  'incomplete',
  'not_needed',
  'policy',
  'other',
] as const;
export const rejectReasonSchema = z.enum(REJECT_REASONS);
export type RejectReason = z.infer<typeof rejectReasonSchema>;

/** One decision on a model draft, as the quality figures count it. */
export interface DecisionRecord {
  thread_id: string;
  outcome: 'approved' | 'rejected';
  decided_at: string;
  /** approved: whether the reviewer changed the text or redrafted it; null for a rejection. */
  edited: boolean | null;
  /** approved: normalized edit distance from the model's last draft to the text sent. */
  edit_distance: number | null;
  /** From the model's draft to the decision. */
  decision_ms: number | null;
  category: string | null;
  model: string | null;
  pipeline_version: string | null;
  reason: RejectReason | null;
  note: string | null;
}

export interface DecisionFilter {
  since?: string | undefined;
  category?: string | undefined;
}

/**
 * The decisions on model drafts, written in the decision's own transaction (so the figures never
 * count a decision that did not commit). One per thread: approve and reject both end it.
 */
export interface QualityLedger {
  record(tx: Transaction, decision: DecisionRecord): Promise<void>;
  /** Decided at or after `since`, of `category` when given. */
  list(filter: DecisionFilter): Promise<DecisionRecord[]>;
}

export class MemoryQualityLedger implements QualityLedger {
  private readonly records = new Map<string, DecisionRecord>();

  async record(_tx: Transaction, decision: DecisionRecord): Promise<void> {
    if (!this.records.has(decision.thread_id)) this.records.set(decision.thread_id, decision);
  }

  async list(filter: DecisionFilter): Promise<DecisionRecord[]> {
    const since = filter.since ? Date.parse(filter.since) : undefined;
    return [...this.records.values()].filter(
      (record) =>
        (since === undefined || Date.parse(record.decided_at) >= since) &&
        (filter.category === undefined || record.category === filter.category),
    );
  }
}

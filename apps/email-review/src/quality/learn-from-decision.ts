import { distance } from 'fastest-levenshtein';
import type { GuidelineDerivation } from '../guidelines/guideline-derivation.js';
import type { Transaction } from '../persistence/transaction.js';
import type { Thread } from '../threads/thread.js';
import { REJECT_REASONS, type QualityLedger, type RejectReason } from './quality-ledger.js';

/** Where a decision's lessons go: its quality record, and the guidelines derived from it. */
interface Learning {
  quality?: QualityLedger | undefined;
  guidelines?: GuidelineDerivation | undefined;
}

/** A quality record's fields from the thread decided `at`: its labels, the time since its draft. */
function recordBase(thread: Thread, at: string) {
  const stamp = thread.drafted_with ?? null;
  return {
    thread_id: thread.thread_id,
    decided_at: at,
    decision_ms: stamp ? Date.parse(at) - Date.parse(stamp.at) : null,
    category: thread.classification?.category ?? null,
    model: stamp?.model ?? null,
    pipeline_version: stamp?.pipeline_version ?? null,
  };
}

/**
 * Inside an approval's transaction: the quality record (edited or not, how much, how long it took)
 * and, when the reviewer changed the model's text, the derivation of guidelines from the pair —
 * queued, so the approve never waits for a model.
 */
export async function learnFromApproval(
  deps: Learning,
  tx: Transaction,
  thread: Thread,
  decision: { at: string; actor: string },
): Promise<void> {
  const stamp = thread.drafted_with;
  const approved = thread.draft ?? '';
  if (!stamp) return;
  const changed = approved !== stamp.text;
  await deps.quality?.record(tx, {
    ...recordBase(thread, decision.at),
    outcome: 'approved',
    edited: changed || stamp.redrafted,
    edit_distance: normalizedEditDistance(stamp.text, approved),
    reason: null,
    note: null,
  });
  if (changed)
    await deps.guidelines?.send(
      { ...derivationBase(thread, decision), draft: stamp.text, approved },
      tx,
    );
}

/** Inside the transaction that commits a redraft: the reviewer's instructions are a lesson too (queued). */
export async function learnFromInstructions(
  deps: Pick<Learning, 'guidelines'>,
  tx: Transaction,
  thread: Thread,
  decision: { at: string; actor: string; instructions: string },
): Promise<void> {
  if (!thread.draft) return;
  await deps.guidelines?.send(
    {
      ...derivationBase(thread, decision),
      draft: thread.draft,
      instructions: decision.instructions,
    },
    tx,
  );
}

/**
 * Inside a rejection's transaction: its reason, one of REJECT_REASONS (`other` when none). Free
 * text (older clients) counts as `other`, kept as the note when the reviewer wrote none.
 */
export async function learnFromRejection(
  deps: Pick<Learning, 'quality'>,
  tx: Transaction,
  thread: Thread,
  decision: { at: string; reason?: string | undefined; note?: string | undefined },
): Promise<void> {
  const known = (REJECT_REASONS as readonly string[]).includes(decision.reason ?? '');
  await deps.quality?.record(tx, {
    ...recordBase(thread, decision.at),
    outcome: 'rejected',
    edited: null,
    edit_distance: null,
    reason: known ? (decision.reason as RejectReason) : 'other',
    note: decision.note ?? ((!known && decision.reason) || null),
  });
}

function derivationBase(thread: Thread, decision: { at: string; actor: string }) {
  return {
    thread_id: thread.thread_id,
    revision: thread.revision,
    actor: decision.actor,
    at: decision.at,
    from: thread.email.from,
    category: thread.classification?.category ?? null,
  };
}

/**
 * Levenshtein distance over the longer text's length: 0 for equal texts, 1 for nothing in common.
 * Line endings and runs of spaces are folded first, so an editor's re-wrapping counts for nothing.
 */
export function normalizedEditDistance(from: string, to: string): number {
  const a = foldSpaces(from);
  const b = foldSpaces(to);
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 0 : distance(a, b) / longest;
}

const foldSpaces = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+/g, ' ')
    .trim();

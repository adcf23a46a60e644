import { Annotation } from '@langchain/langgraph';
import type { SearchHit } from '@repo/knowledge';
import type { Grounding } from '../knowledge/grounding.js';
import type { DraftStamp } from '../quality/draft-stamp.js';
import type { Classification } from './classification.js';

/** A thread's earlier exchange, when its email answers a reply the service sent. */
export interface EarlierExchange {
  /** The customer's earlier email. */
  email: string;
  /** The reply that was sent to it. */
  reply: string;
}

/** A channel holding the latest value written, null until one is. */
const latest = <T>() => Annotation<T | null>({ reducer: (_, next) => next, default: () => null });

/**
 * The graph's state. Keys may not share a node's name, hence `reply` (the API's `draft`) and
 * `sent` (written by `send`). Every key is a channel persisted per checkpoint, so keep them few.
 */
export const EmailState = Annotation.Root({
  /** The inbound email text, as the client sent it. */
  inbound: Annotation<string>,
  /** The inbound email's subject, when known; the classifier and the drafter read it. */
  subject: latest<string>(),
  /** Who wrote it (the From header), when known: the drafter greets the sender by name. */
  from: latest<string>(),
  /** The earlier exchange this email answers (the drafter reads it as the conversation so far). */
  earlier: latest<EarlierExchange>(),
  classification: latest<Classification>(),
  /** The current draft reply. */
  reply: latest<string>(),
  /** Drafts so far; writers send increments (1), so an edit counts from the checkpoint's value. */
  revision: Annotation<number>({ reducer: (total, step) => total + step, default: () => 0 }),
  /**
   * The help center passages `retrieve` found for the next draft (`passages` null: the help center
   * holds no article), consumed (reset to null) by it; null: the draft retrieves its own.
   */
  retrieved: latest<{ passages: SearchHit[] | null }>(),
  /** The help center articles the latest model draft cites (null without a help center). */
  grounding: latest<Grounding>(),
  /** What made the latest model draft (model, pipeline version, its text, the guidelines given). */
  drafted_with: latest<DraftStamp>(),
  /** The reviewer's redraft instructions, consumed (reset to null) by the next draft. */
  instructions: latest<string>(),
  /** The send step's record: when the message left and exactly what it said. */
  sent: latest<{ at: string; text: string }>(),
  rejected_at: latest<string>(),
});

export type EmailStateValues = typeof EmailState.State;
export type EmailStateUpdate = typeof EmailState.Update;

import type OpenAI from 'openai';
import type { DraftRetrieval } from '../knowledge/help-center.js';
import type { DraftGuidelines } from '../guidelines/reviewer-guidelines.js';
import type { ModelRetryPolicy } from '../llm/model-call.js';
import type { Labels } from './classification.js';
import type { EmailPrompts } from './prompts.js';

/** What the workflow's nodes need from the outside world; passed in so tests and servers choose. */
export interface WorkflowDeps {
  llm: OpenAI;
  model: string;
  /** How model calls are retried (default: the client's retries, within 20 s by default). */
  retry?: ModelRetryPolicy;
  /**
   * Told of each run of `send` by LangGraph's own tooling (see sendNode; Studio logs them); the
   * service passes none, its deliveries are src/delivery/.
   */
  mailer?: { send(email: { thread_id: string; text: string; sent_at: string }): Promise<void> };
  clock?: () => Date;
  /** The support profile's prompts (default: the package's, without a profile). */
  prompts?: EmailPrompts;
  /** The profile's categories and urgencies (default: DEFAULT_LABELS). */
  labels?: Labels;
  /** The help center the draft step retrieves passages from; none: drafts carry no grounding. */
  helpCenter?: DraftRetrieval;
  /** The reviewer guidelines a draft is given; none: drafts get none. */
  guidelines?: DraftGuidelines;
  /** Stamped on each draft with the model (see src/quality/draft-stamp.ts). */
  pipelineVersion?: string;
}

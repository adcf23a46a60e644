import type OpenAI from 'openai';
import type { ModelRetryPolicy } from '../llm/model-call.js';
import type { Mailer } from './mailer.js';

/** What the workflow's nodes need from the outside world; passed in so tests and servers choose. */
export interface WorkflowDeps {
  llm: OpenAI;
  model: string;
  /** How model calls are retried (default: the client's retries, within DEFAULT_RETRY_BUDGET_MS). */
  retry?: ModelRetryPolicy;
  /** Told of each run of `send` outside the service (see sendNode); the service passes none. */
  mailer?: Mailer;
  clock?: () => Date;
}

import type OpenAI from 'openai';
import type { Mailer } from '../mailer/mailer.js';

/** What the workflow's nodes need from the outside world; passed in so tests and servers choose. */
export interface WorkflowDeps {
  llm: OpenAI;
  model: string;
  mailer: Mailer;
  clock?: () => Date;
}

import { z } from 'zod';
import { paths } from './paths.js';

type Env = Record<string, string | undefined>;

const flag = z
  .enum(['0', '1', 'true', 'false'])
  .optional()
  .transform((value) => value === '1' || value === 'true');

const schema = z.object({
  /** Any OpenAI-compatible base URL (`…/v1`): email-review's model, and helpdesk's with EVAL_HELPDESK_PROVIDER=openai. */
  EVAL_OPENAI_BASE_URL: z.url().optional(),
  EVAL_OPENAI_API_KEY: z.string().min(1).optional(),
  EVAL_OPENAI_MODEL: z.string().min(1).optional(),
  /** Gemini's API (or a compatible proxy) for helpdesk; Google's endpoint when only the key is given. */
  EVAL_GEMINI_BASE_URL: z.url().optional(),
  EVAL_GEMINI_API_KEY: z.string().min(1).optional(),
  EVAL_GEMINI_MODEL: z.string().min(1).optional(),
  EVAL_HELPDESK_PROVIDER: z.enum(['gemini', 'openai']).default('gemini'),
  /** Store every provider exchange in EVAL_CASSETTE (record), or answer only from it with no upstream (replay). */
  EVAL_RECORD: flag,
  EVAL_REPLAY: flag,
  EVAL_CASSETTE: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/)
    .default('llm-emulator'),
  EVAL_CASSETTES_DIR: z.string().min(1).default(paths.cassettes),
  /** Optional judge: an OpenAI-compatible base URL (`…/v1`), its key and model. */
  EVAL_JUDGE_URL: z.url().optional(),
  EVAL_JUDGE_API_KEY: z.string().min(1).optional(),
  EVAL_JUDGE_MODEL: z.string().min(1).default('gpt-4.1-mini'),
  /** `email`, `chat` or both (default); EVAL_CASES: case ids, comma-separated. */
  EVAL_ONLY: z.enum(['email', 'chat']).optional(),
  EVAL_CASES: z
    .string()
    .optional()
    .transform((value) => (value ? value.split(',').map((id) => id.trim()) : undefined)),
  EVAL_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  EVAL_OUT: z.string().min(1).default(paths.results),
  /** What the services are started with (the pipeline's inputs); KB_DIR defaults to the sample help center. */
  EVAL_KB_DIR: z.string().min(1).default(paths.sampleHelpCenter),
  EVAL_PROMPTS_DIR: z.string().min(1).optional(),
  EVAL_SUPPORT_PROFILE_FILE: z.string().min(1).optional(),
  EVAL_GATE_CONFIG: z.string().min(1).default(paths.gateConfig),
});

export type EvalSettings = z.infer<typeof schema> & {
  /** `emulator` (started here), `real` (a base URL or key given), or `replay` (cassettes only). */
  mode: 'emulator' | 'real' | 'replay';
};

/** The suite's whole configuration (nothing else reads process.env). Throws naming the variable. */
export function loadSettings(env: Env = process.env): EvalSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new Error(`${String(issue.path[0])}: ${issue.message}`);
  }
  const settings = result.data;
  if (settings.EVAL_RECORD && settings.EVAL_REPLAY) {
    throw new Error('EVAL_RECORD and EVAL_REPLAY: choose one');
  }
  if (settings.EVAL_RECORD && (settings.EVAL_ONLY || settings.EVAL_CASES)) {
    // A recording replaces the cassette: a part of the suite would leave the rest unreplayable.
    throw new Error('EVAL_RECORD records the whole suite: unset EVAL_ONLY and EVAL_CASES');
  }
  const real = Boolean(
    settings.EVAL_OPENAI_BASE_URL ||
    settings.EVAL_OPENAI_API_KEY ||
    settings.EVAL_GEMINI_BASE_URL ||
    settings.EVAL_GEMINI_API_KEY,
  );
  const mode = settings.EVAL_REPLAY ? 'replay' : real ? 'real' : 'emulator';
  if (mode === 'real') {
    // Each wire in use needs a key or a base URL of its own, or its requests would go out keyless.
    if (!settings.EVAL_OPENAI_API_KEY && !settings.EVAL_OPENAI_BASE_URL) {
      throw new Error(
        'EVAL_OPENAI_API_KEY or EVAL_OPENAI_BASE_URL: email-review needs its model too',
      );
    }
    if (
      settings.EVAL_HELPDESK_PROVIDER === 'gemini' &&
      !settings.EVAL_GEMINI_API_KEY &&
      !settings.EVAL_GEMINI_BASE_URL
    ) {
      throw new Error(
        'EVAL_GEMINI_API_KEY or EVAL_GEMINI_BASE_URL: helpdesk runs on Gemini (or set EVAL_HELPDESK_PROVIDER=openai)',
      );
    }
  }
  return { ...settings, mode };
}

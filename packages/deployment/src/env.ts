import { z } from 'zod';
import { parseEnv } from '@repo/llm-config';

const port = (defaultPort: number) =>
  z.coerce.number().int().min(1).max(65_535).default(defaultPort);

const demoEnvSchema = z.object({
  DEMO_EMULATOR_PORT: port(4010),
  DEMO_EMAIL_PORT: port(3001),
  DEMO_HELPDESK_PORT: port(3002),
  /** The demo's mail catcher (SMTP on loopback), unless SMTP_URL points email-review elsewhere. */
  DEMO_SMTP_PORT: port(2525),
  /** Where the mail catcher writes delivered replies as .eml files (default: .demo-mail in the repo). */
  DEMO_MAIL_DIR: z.string().trim().min(1).optional(),
  SMTP_URL: z.string().trim().min(1).optional(),
  /** How long each service may take to be ready (/readyz, the emulator's /healthz) after it was spawned. */
  DEMO_READY_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  DATABASE_URL: z.string().trim().min(1).optional(),
  API_TOKEN: z.string().trim().min(1).optional(),
  LLM_A_API_KEY: z.string().trim().min(1).optional(),
  AGENT_LLM_API_KEY: z.string().trim().min(1).optional(),
  NO_COLOR: z.string().optional(),
  /** `human` (default): the services' JSON log lines shown as readable lines; `json`: as the services write them. */
  DEMO_LOG_FORMAT: z.enum(['human', 'json']).default('human'),
});

export type DemoEnv = z.infer<typeof demoEnvSchema>;

/** The runner's own settings; the services read theirs themselves from the environment they inherit. */
export function loadDemoEnv(env: Record<string, string | undefined>): DemoEnv {
  return parseEnv(demoEnvSchema, env);
}

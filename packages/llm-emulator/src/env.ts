import { z } from 'zod';

const envSchema = z.object({
  EMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
  EMULATOR_LATENCY_MS: z.coerce.number().int().min(0).default(0),
  EMULATOR_HOST: z.string().min(1).default('127.0.0.1'),
});

export type EmulatorEnv = z.infer<typeof envSchema>;

/** The CLI's settings from the environment; command-line flags override them. */
export function loadEnv(env: NodeJS.ProcessEnv): EmulatorEnv {
  return envSchema.parse(env);
}

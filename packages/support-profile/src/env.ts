import { parseEnv } from '@repo/llm-config';
import { z } from 'zod';

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value : undefined));

/**
 * Where a service finds its support profile and prompt overrides, and the profile fields a deployment may set
 * without a file. Empty values count as unset.
 */
const profileEnvSchema = z.object({
  SUPPORT_PROFILE_FILE: optionalText,
  PROMPTS_DIR: optionalText,
  PROFILE_COMPANY_NAME: optionalText,
  PROFILE_PRODUCT_NAME: optionalText,
  PROFILE_PRODUCT_CONTEXT: optionalText,
  PROFILE_SIGNATURE: optionalText,
  PROFILE_TONE: optionalText,
  PROFILE_REPLY_LANGUAGE: optionalText,
});

export type ProfileEnv = z.infer<typeof profileEnvSchema>;

export function parseProfileEnv(env: NodeJS.ProcessEnv): ProfileEnv {
  return parseEnv(profileEnvSchema, env);
}

import { readFileSync } from 'node:fs';
import { ConfigError } from '@repo/llm-config';
import { parseDocument } from 'yaml';
import { CUSTOMER_LANGUAGE, DEFAULT_PROFILE, type SupportProfile } from './default-profile.js';
import type { ProfileEnv } from './env.js';
import { profileError } from './profile-error.js';
import { supportProfileSchema, type SupportProfileInput } from './profile-schema.js';

/** The profile fields a variable may set, by variable. Lists (style rules, categories) need the file. */
export const PROFILE_ENV_FIELDS = {
  PROFILE_COMPANY_NAME: 'company_name',
  PROFILE_PRODUCT_NAME: 'product_name',
  PROFILE_PRODUCT_CONTEXT: 'product_context',
  PROFILE_SIGNATURE: 'signature',
  PROFILE_TONE: 'tone',
  PROFILE_REPLY_LANGUAGE: 'reply_language',
} as const satisfies Partial<Record<keyof ProfileEnv, keyof SupportProfileInput>>;

type ReadText = (path: string) => string;

const readText: ReadText = (path) => readFileSync(path, 'utf8');

/** The file's fields; YAML, and so JSON too (JSON is YAML). An empty file is an empty profile. */
function readProfileFile(path: string, read: ReadText): unknown {
  let text: string;
  try {
    text = read(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(`support profile: cannot read ${path} (SUPPORT_PROFILE_FILE): ${code}`);
  }
  const document = parseDocument(text, { prettyErrors: true });
  const problem = document.errors[0];
  if (problem) {
    const line = problem.linePos?.[0].line;
    const reason = problem.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw new ConfigError(`support profile: ${path}${line ? ` line ${line}` : ''}: ${reason}`);
  }
  const value: unknown = document.toJS();
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new ConfigError(`support profile: ${path}: expected a mapping of fields`);
  return value;
}

/** A signature given in one variable may write its line breaks as `\n`. */
function fromVariable(variable: string, value: string): string {
  return variable === 'PROFILE_SIGNATURE' ? value.replace(/\\n/g, '\n') : value;
}

/**
 * The support profile a service starts with: SUPPORT_PROFILE_FILE (when set), then the PROFILE_*
 * variables over it, validated; absent fields keep DEFAULT_PROFILE's. A bad one throws a ConfigError
 * naming the field.
 */
export function loadSupportProfile(env: ProfileEnv, read: ReadText = readText): SupportProfile {
  const fields: Record<string, unknown> = env.SUPPORT_PROFILE_FILE
    ? { ...(readProfileFile(env.SUPPORT_PROFILE_FILE, read) as Record<string, unknown>) }
    : {};
  const fromEnv: Record<string, string> = {};
  for (const [variable, field] of Object.entries(PROFILE_ENV_FIELDS)) {
    const value = env[variable as keyof typeof PROFILE_ENV_FIELDS];
    if (value === undefined) continue;
    fields[field] = fromVariable(variable, value);
    fromEnv[field] = variable;
  }
  const parsed = supportProfileSchema.safeParse(fields);
  if (!parsed.success) throw profileError(parsed.error, fromEnv);
  const profile = parsed.data;
  return {
    ...DEFAULT_PROFILE,
    ...profile,
    style_rules: profile.style_rules ?? DEFAULT_PROFILE.style_rules,
    reply_language:
      profile.reply_language?.toLowerCase() === CUSTOMER_LANGUAGE
        ? CUSTOMER_LANGUAGE
        : (profile.reply_language ?? CUSTOMER_LANGUAGE),
    categories: profile.categories ?? DEFAULT_PROFILE.categories,
    urgencies: profile.urgencies ?? DEFAULT_PROFILE.urgencies,
  };
}

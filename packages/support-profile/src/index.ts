export { loadSupportConfig } from './load-support-config.js';
export { parseProfileEnv, type ProfileEnv } from './env.js';
export { loadSupportProfile, PROFILE_ENV_FIELDS } from './load-profile.js';
export {
  DEFAULT_PROFILE,
  DEFAULT_CATEGORIES,
  DEFAULT_URGENCIES,
  CUSTOMER_LANGUAGE,
  type SupportProfile,
} from './default-profile.js';
export { supportProfileSchema, type SupportProfileInput, type Label } from './profile-schema.js';
export { loadPrompts, DEFAULT_PROMPTS_DIR, type SupportPrompts } from './prompts/load-prompts.js';
export {
  PROMPT_NAMES,
  PROFILE_VARIABLES,
  PROMPT_OWN_VARIABLES,
  variablesOf,
  type PromptName,
} from './prompts/prompt-names.js';
export { renderTemplate, variablesIn } from './prompts/template.js';
export { adkInstruction } from './prompts/adk-instruction.js';

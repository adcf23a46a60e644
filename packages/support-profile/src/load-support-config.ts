import type { SupportProfile } from './default-profile.js';
import { parseProfileEnv } from './env.js';
import { loadSupportProfile } from './load-profile.js';
import { loadPrompts, type SupportPrompts } from './prompts/load-prompts.js';

/**
 * A service's profile and prompts from its environment, read and checked once at start-up (wrap it in
 * llm-config's `loadOrExit`: a bad profile or prompt file stops start-up with one line).
 */
export function loadSupportConfig(env: NodeJS.ProcessEnv): {
  profile: SupportProfile;
  prompts: SupportPrompts;
} {
  const settings = parseProfileEnv(env);
  const profile = loadSupportProfile(settings);
  return { profile, prompts: loadPrompts(profile, settings.PROMPTS_DIR) };
}

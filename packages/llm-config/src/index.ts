export { ConfigError } from './config-error.js';
export { parseEnv, intFromEnv, countFromEnv, urlFromEnv } from './parse-env.js';
export {
  loadOpenAiSettings,
  DEFAULT_OPENAI_MODEL,
  type OpenAiSettings,
} from './openai-settings.js';
export {
  loadGeminiSettings,
  DEFAULT_GEMINI_MODEL,
  type GeminiSettings,
} from './gemini-settings.js';
export {
  loadAgentModelSettings,
  AGENT_LLM_PROVIDERS,
  type AgentLlmProvider,
  type AgentModelSettings,
} from './agent-model-settings.js';
export { redactSecrets, REDACTED } from './redact.js';
export { loadOrExit } from './load-or-exit.js';

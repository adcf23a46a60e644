/**
 * The environment a system under test starts with: the bench's own, minus what would change how a
 * service behaves behind our back (jest's NODE_OPTIONS, a DATABASE_URL that `adk api_server` would
 * silently use as its session store, a stray PORT, a help center of its own), plus the given variables.
 */
const DROPPED = [
  'NODE_OPTIONS',
  'DATABASE_URL',
  'DATABASE_SCHEMA',
  'KB_DIR',
  'KB_SCHEMA',
  'PORT',
  'HOST',
  'LOG_LEVEL',
  'API_TOKEN',
  'JEST_WORKER_ID',
];

export function childEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !DROPPED.includes(key)) env[key] = value;
  }
  return { ...env, ...extra };
}

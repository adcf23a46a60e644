import { ConfigError } from './config-error.js';

/**
 * Runs a settings loader at start-up; on a ConfigError prints one clear line to stderr and exits 1,
 * so a misconfigured service never starts half-way. Other errors propagate.
 */
export function loadOrExit<T>(load: () => T, service = 'service'): T {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${service}: configuration error: ${error.message}\n`);
    process.exit(1);
  }
}

import { createHash } from 'node:crypto';
import type { EndpointConfig } from './webhooks-env.js';

/** The configured name, or the host and 6 hex characters of the URL's hash. */
export function endpointId(config: EndpointConfig): string {
  if (config.name) return config.name;
  const hash = createHash('sha256').update(config.url).digest('hex').slice(0, 6);
  return `${new URL(config.url).hostname.replace(/[^a-z0-9.-]/gi, '_')}-${hash}`;
}

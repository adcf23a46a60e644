/** A project service's help center (scenario 11). */
export interface HelpCenterOptions {
  /** KB_DIR (loaded after the service is ready, one file at a time in name order) and KB_SCHEMA (its knowledge base with a database). */
  helpCenter?: { dir?: string; schema?: string };
}

export function helpCenterEnv({ helpCenter }: HelpCenterOptions): Record<string, string> {
  return {
    ...(helpCenter?.dir ? { KB_DIR: helpCenter.dir } : {}),
    ...(helpCenter?.schema ? { KB_SCHEMA: helpCenter.schema } : {}),
  };
}

/** A service with KB_DIR answers ready once the folder is loaded: 10,000 articles into PostgreSQL, on a busy machine. */
export const HELP_CENTER_LOAD_TIMEOUT_MS = 15 * 60_000;

/** How long a service may take to be ready: its help center's load, when it has a folder. */
export function readyTimeoutMs({ helpCenter }: HelpCenterOptions): number | undefined {
  return helpCenter?.dir ? HELP_CENTER_LOAD_TIMEOUT_MS : undefined;
}

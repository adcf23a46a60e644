/** A project service's help center (scenario 11). */
export interface HelpCenterOptions {
  /** KB_DIR (loaded before the service is ready) and KB_SCHEMA (its knowledge base with a database). */
  helpCenter?: { dir?: string; schema?: string };
  /** How long start-up may take (default 60 s): loading a large KB_DIR into PostgreSQL takes longer. */
  readyTimeoutMs?: number;
}

export function helpCenterEnv({ helpCenter }: HelpCenterOptions): Record<string, string> {
  return {
    ...(helpCenter?.dir ? { KB_DIR: helpCenter.dir } : {}),
    ...(helpCenter?.schema ? { KB_SCHEMA: helpCenter.schema } : {}),
  };
}

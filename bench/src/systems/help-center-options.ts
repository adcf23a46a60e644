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

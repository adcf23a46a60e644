import type { ServiceProcess } from '../processes/child-service.js';

/** A running system under test: the project's service or a framework's own server. */
export interface RunningSystem {
  /** Column label in the report, e.g. "project (memory)" or "LangGraph dev server". */
  label: string;
  url: string;
  process: ServiceProcess;
  stop(): Promise<void>;
}

/** Start-up options every system takes. */
export interface SystemOptions {
  emulatorUrl: string;
  /** Extra node flags for the service process (e.g. --cpu-prof); only the project's services take them. */
  nodeFlags?: string[];
}

/** Variables that keep the peers' CLIs from phoning home or opening a browser. */
export const OFFLINE_ENV: Record<string, string> = {
  LANGGRAPH_CLI_NO_ANALYTICS: '1',
  LANGSMITH_TRACING: 'false',
  LANGSMITH_TRACING_V2: 'false',
  LANGCHAIN_TRACING_V2: 'false',
  LANGCHAIN_TRACING: 'false',
  BROWSER: 'none',
  OTEL_SDK_DISABLED: 'true',
};

/**
 * Every system logs at warn: the comparison is of the frameworks, not of how fast each one prints
 * a line per request to a pipe.
 */
export const LOG_LEVEL = 'warn';

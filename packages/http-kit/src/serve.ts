import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

export interface ServeOptions {
  port: number;
  /** Defaults to all interfaces, as a container needs; tests pass 127.0.0.1. */
  host?: string;
  logger: Logger;
  /** Run after the server has drained, in order (e.g. close the database pool). */
  onClose?: Array<() => Promise<void> | void>;
  /**
   * Run as soon as shutdown begins, before the drain: end responses that never finish by
   * themselves (event streams), which would otherwise hold the drain until the timeout.
   */
  onDraining?: Array<() => void>;
  /**
   * How long in-flight requests may take to finish before their connections are cut; after a crash,
   * also the bound on the whole close.
   */
  shutdownTimeoutMs?: number;
  /**
   * Install process handlers (default true): SIGTERM/SIGINT close and exit 0; an uncaught exception or
   * unhandled rejection is logged at fatal, then closes and exits 1. Tests that serve in-process pass false.
   */
  handleSignals?: boolean;
}

export interface RunningServer {
  server: Server;
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Listens, and on SIGTERM/SIGINT stops accepting, drains in-flight requests, runs close hooks, exits 0.
 * A crash (uncaught exception, unhandled rejection) closes the same way and exits 1.
 */
export async function serve(app: Express, options: ServeOptions): Promise<RunningServer> {
  const server = createServer(app);
  server.listen(options.port, options.host);
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';

  let closing: Promise<void> | undefined;
  const close = () => (closing ??= shutdown(server, options));

  if (options.handleSignals ?? true) exitOnSignalOrCrash(close, options);
  return { server, port, url: `http://${host}:${port}`, close };
}

/**
 * Process handlers that close the server and exit. After a crash the process may be in a bad state, so the
 * whole close is bounded by the shutdown timeout; a signal's close is bounded by whoever sent the signal.
 */
function exitOnSignalOrCrash(close: () => Promise<void>, options: ServeOptions): void {
  const { logger } = options;
  let exitCode = 0;
  const closeAndExit = (code: number) => {
    exitCode = Math.max(exitCode, code);
    close().then(
      () => process.exit(exitCode),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'shutting down');
    closeAndExit(0);
  };
  const onCrash = (error: unknown, origin: 'uncaught exception' | 'unhandled rejection') => {
    logger.fatal({ err: error }, origin);
    if (exitCode === 1) return; // already closing after an earlier crash
    setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS);
    closeAndExit(1);
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  process.on('uncaughtException', (error) => onCrash(error, 'uncaught exception'));
  process.on('unhandledRejection', (reason) => onCrash(reason, 'unhandled rejection'));
}

async function shutdown(server: Server, options: ServeOptions): Promise<void> {
  const drained = new Promise<void>((resolve) => server.close(() => resolve()));
  for (const hook of options.onDraining ?? []) hook();
  server.closeIdleConnections();
  const timer = setTimeout(
    () => server.closeAllConnections(),
    options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
  );
  await drained;
  clearTimeout(timer);
  for (const hook of options.onClose ?? []) await hook();
  options.logger.info('stopped');
}

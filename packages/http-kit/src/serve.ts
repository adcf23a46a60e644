import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';

export interface ServeOptions {
  port: number;
  /** Defaults to all interfaces, as a container needs; tests pass 127.0.0.1. */
  host?: string;
  logger: Logger;
  /** Run after the server has drained, in order (e.g. close the database pool). */
  onClose?: Array<() => Promise<void> | void>;
  /** How long in-flight requests may take to finish before their connections are cut. */
  shutdownTimeoutMs?: number;
  /** Install SIGTERM/SIGINT handlers that close and exit 0 (default true). */
  handleSignals?: boolean;
}

export interface RunningServer {
  server: Server;
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Listens, and on SIGTERM/SIGINT stops accepting, drains in-flight requests, runs close hooks, exits 0. */
export async function serve(app: Express, options: ServeOptions): Promise<RunningServer> {
  const server = createServer(app);
  server.listen(options.port, options.host);
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';

  let closing: Promise<void> | undefined;
  const close = () => (closing ??= shutdown(server, options));

  if (options.handleSignals ?? true) {
    const onSignal = (signal: NodeJS.Signals) => {
      options.logger.info({ signal }, 'shutting down');
      close().then(
        () => process.exit(0),
        (error: unknown) => {
          options.logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }
  return { server, port, url: `http://${host}:${port}`, close };
}

async function shutdown(server: Server, options: ServeOptions): Promise<void> {
  const drained = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), options.shutdownTimeoutMs ?? 10_000);
  await drained;
  clearTimeout(timer);
  for (const hook of options.onClose ?? []) await hook();
  options.logger.info('stopped');
}

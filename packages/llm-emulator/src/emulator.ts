import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FaultQueue, type Fault, type FaultSpec } from './control/faults.js';
import { RequestLog, type LoggedRequest } from './control/request-log.js';
import { sendJson } from './server/http-io.js';
import { handleRequest } from './server/handle-request.js';
import type { EmulatorState } from './server/state.js';

export interface EmulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Fixed delay added to every provider response, to model a real provider in benchmarks. */
  latencyMs?: number;
  /** Pause between the events of a streamed (SSE) answer; default 0, all written at once. */
  chunkIntervalMs?: number;
  /** Called with unexpected handler errors (they are answered 500). */
  onError?: (err: unknown) => void;
}

export interface Emulator {
  /** e.g. 'http://127.0.0.1:4010' (no trailing slash). OpenAI base URL: `${url}/v1`; Gemini base URL: `url`. */
  url: string;
  faults: { add(spec: FaultSpec): void; clear(): void; list(): Fault[] };
  requests: { list(): LoggedRequest[]; clear(): void };
  setLatency(ms: number): void;
  setChunkInterval(ms: number): void;
  /** Stops listening and destroys open connections, including hanging requests. */
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const state: EmulatorState = {
    faults: new FaultQueue(),
    log: new RequestLog(),
    latencyMs: options.latencyMs ?? 0,
    chunkIntervalMs: options.chunkIntervalMs ?? 0,
  };
  const server = createServer((req, res) => {
    handleRequest(state, req, res).catch((err: unknown) => {
      options.onError?.(err);
      if (!res.headersSent) sendJson(res, 500, { error: { message: 'emulator internal error' } });
      else res.destroy();
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    faults: {
      add: (spec) => void state.faults.add(spec),
      clear: () => state.faults.clear(),
      list: () => state.faults.list(),
    },
    requests: { list: () => state.log.list(), clear: () => state.log.clear() },
    setLatency: (ms) => {
      state.latencyMs = ms;
    },
    setChunkInterval: (ms) => {
      state.chunkIntervalMs = ms;
    },
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { faultSpecSchema } from '../control/faults.js';
import { readBody, sendJson } from './http-io.js';
import type { EmulatorState } from './state.js';

const latencySchema = z.object({
  latencyMs: z.number().int().min(0),
  chunkIntervalMs: z.number().int().min(0).optional(),
});

async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const raw = await readBody(req);
  return raw.length ? (JSON.parse(raw.toString('utf8')) as unknown) : undefined;
}

function badRequest(res: ServerResponse, message: string): void {
  sendJson(res, 400, { error: { message } });
}

/** `/_emulator/*`: faults, the request log and latency, for tests and benchmarks in other processes. */
export async function adminRoute(
  state: EmulatorState,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  const key = `${req.method ?? 'GET'} ${path}`;
  switch (key) {
    case 'GET /healthz':
    case 'GET /_emulator/health':
      return sendJson(res, 200, { status: 'ok' });
    case 'GET /_emulator/faults':
      return sendJson(res, 200, state.faults.list());
    case 'POST /_emulator/faults': {
      let body: unknown;
      try {
        body = await jsonBody(req);
      } catch {
        return badRequest(res, 'body is not valid JSON');
      }
      const parsed = z.union([faultSpecSchema, z.array(faultSpecSchema)]).safeParse(body);
      if (!parsed.success) return badRequest(res, z.prettifyError(parsed.error));
      for (const spec of Array.isArray(parsed.data) ? parsed.data : [parsed.data])
        state.faults.add(spec);
      return sendJson(res, 201, state.faults.list());
    }
    case 'DELETE /_emulator/faults':
      state.faults.clear();
      res.writeHead(204).end();
      return;
    case 'GET /_emulator/requests':
      return sendJson(res, 200, state.log.list());
    case 'DELETE /_emulator/requests':
      state.log.clear();
      res.writeHead(204).end();
      return;
    case 'GET /_emulator/latency':
      return sendJson(res, 200, {
        latencyMs: state.latencyMs,
        chunkIntervalMs: state.chunkIntervalMs,
      });
    case 'PUT /_emulator/latency':
    case 'POST /_emulator/latency': {
      let body: unknown;
      try {
        body = await jsonBody(req);
      } catch {
        return badRequest(res, 'body is not valid JSON');
      }
      const parsed = latencySchema.safeParse(body);
      if (!parsed.success) return badRequest(res, z.prettifyError(parsed.error));
      state.latencyMs = parsed.data.latencyMs;
      state.chunkIntervalMs = parsed.data.chunkIntervalMs ?? state.chunkIntervalMs;
      return sendJson(res, 200, {
        latencyMs: state.latencyMs,
        chunkIntervalMs: state.chunkIntervalMs,
      });
    }
    default:
      return sendJson(res, 404, { error: { message: `Unknown emulator path: ${key}` } });
  }
}

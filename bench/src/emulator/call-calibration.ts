import { JsonClient } from '../net/json-client.js';
import { median } from '../stats/percentiles.js';
import type { EmulatorRequest } from './emulator-process.js';

/**
 * How long one model call takes when nothing but the emulator is involved: a logged request body
 * is sent straight to the emulator `samples` times, one after another, and the median kept. This
 * is the "model call" that the services' added time is measured over.
 */
export async function directCallMs(
  emulatorUrl: string,
  request: EmulatorRequest,
  samples = 15,
): Promise<number> {
  const client = new JsonClient(emulatorUrl, 1, {
    authorization: 'Bearer bench-key',
    'x-goog-api-key': 'bench-key',
  });
  const times: number[] = [];
  try {
    for (let i = 0; i < samples; i += 1) {
      const started = performance.now();
      await client.expect('POST', request.path, request.body, [200]);
      times.push(performance.now() - started);
    }
  } finally {
    client.close();
  }
  return median(times);
}

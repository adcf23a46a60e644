import { createParser } from 'eventsource-parser';

/** When the client saw the turn's first event and when the turn was done, ms after sending. */
export interface TurnTiming {
  firstEventMs: number;
  doneMs: number;
}

async function post(url: string, body: unknown, accept: string): Promise<Response> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { accept, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200)
    throw new Error(`POST ${url} answered ${res.status}: ${await res.text()}`);
  return res;
}

/** A JSON answer: nothing is seen before the whole reply, so first event and done coincide. */
export async function timeJsonTurn(url: string, body: unknown): Promise<TurnTiming> {
  const started = performance.now();
  const res = await post(url, body, 'application/json');
  await res.json();
  const doneMs = performance.now() - started;
  return { firstEventMs: doneMs, doneMs };
}

/**
 * A Server-Sent Events answer read with a real parser. `isFailure` spots an event that failed
 * the turn; the turn is done at `doneEvent` (the project's `done`) or, without one (ADK's
 * /run_sse), when the stream ends.
 */
export async function timeStreamedTurn(
  url: string,
  body: unknown,
  options: { doneEvent?: string; isFailure: (name: string | undefined, data: string) => boolean },
): Promise<TurnTiming> {
  const started = performance.now();
  const res = await post(url, body, 'text/event-stream');
  let firstEventMs: number | undefined;
  let doneMs: number | undefined;
  let failure: string | undefined;
  const parser = createParser({
    onEvent: ({ event, data }) => {
      const at = performance.now() - started;
      firstEventMs ??= at;
      if (options.isFailure(event, data)) failure ??= data;
      if (options.doneEvent && event === options.doneEvent) doneMs ??= at;
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
  }
  if (failure) throw new Error(`the streamed turn failed: ${failure}`);
  if (firstEventMs === undefined) throw new Error(`POST ${url} streamed no event`);
  doneMs ??= options.doneEvent ? undefined : performance.now() - started;
  if (doneMs === undefined) throw new Error(`POST ${url} ended without ${options.doneEvent}`);
  return { firstEventMs, doneMs };
}

import { HttpError } from '@repo/http-kit';

/** 429 `session_busy`: too many messages of one session waiting, or its lease not free in time. */
export function sessionBusy(sessionId: string, detail: string): HttpError {
  return new HttpError(429, 'session_busy', detail, {
    extra: { session_id: sessionId },
    headers: { 'retry-after': '1' },
  });
}

export const tooManyWaiting = (sessionId: string, limit: number) =>
  sessionBusy(
    sessionId,
    `Session ${sessionId} already has ${limit} messages waiting; retry later.`,
  );

/** 429 `session_busy` too: the turn's lease expired and another turn took the session over first. */
export const sessionTakenOver = (sessionId: string) =>
  sessionBusy(
    sessionId,
    `Session ${sessionId} was taken over by another turn while this one ran; this message was not recorded, retry it.`,
  );

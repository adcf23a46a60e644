import type { ResponseEvent } from '@repo/http-kit';

/** Every response the apps of this test file gave (fed by createEmailReview's `onResponse`). */
export const observedResponses: ResponseEvent[] = [];

export function recordResponse(event: ResponseEvent): void {
  observedResponses.push(event);
}

import { HttpError } from '@repo/http-kit';

/** List cursors are opaque to clients: a versioned position, base64url-encoded. */
export function encodeCursor(position: number): string {
  return Buffer.from(`v1:${position}`).toString('base64url');
}

export function decodeCursor(cursor: string): number {
  const match = /^v1:([1-9][0-9]{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match)
    throw new HttpError(400, 'invalid_cursor', 'The cursor is not one this service issued.');
  return Number(match[1]);
}

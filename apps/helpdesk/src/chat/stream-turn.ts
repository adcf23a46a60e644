import { problemFor, type Logger } from '@repo/http-kit';
import type { SessionAccess } from '../sessions/session-access.js';
import type { ChatReply, ChatService } from './chat-service.js';
import { turnEventReader, type TurnEvent } from './turn-events.js';

/** Where a streamed turn's events go (an SSE response): opened once the turn starts. */
interface TurnEventSink {
  open(): void;
  send(event: TurnEvent['event'] | 'done' | 'error', data: unknown): void;
  end(): void;
}

/**
 * One message, its turn streamed as it happens, then one `done` (the reply) or `error`. The sink
 * opens when the turn starts: what fails before (429 session_busy) is thrown as ever.
 */
export async function streamTurn(
  chat: ChatService,
  input: { sessionId: string; message: string; access: SessionAccess },
  sink: TurnEventSink,
  context: { logger: Logger; requestId?: string },
): Promise<void> {
  const read = turnEventReader();
  let opened = false;
  let reply: ChatReply;
  try {
    reply = await chat.send(
      input.sessionId,
      input.message,
      {
        onStart: () => {
          opened = true;
          sink.open();
        },
        onEvent: (event) => {
          for (const { event: name, data } of read(event)) sink.send(name, data);
        },
      },
      input.access,
    );
  } catch (error) {
    if (!opened) throw error;
    const problem = problemFor(error);
    if (context.requestId) problem.request_id = context.requestId;
    context.logger.error({ err: error, session_id: input.sessionId }, 'streamed turn failed');
    sink.send('error', problem);
    sink.end();
    return;
  }
  sink.send('done', reply);
  sink.end();
}

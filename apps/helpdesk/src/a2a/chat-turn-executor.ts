import { randomUUID } from 'node:crypto';
import type { Message, Part, TaskState } from '@a2a-js/sdk';
import {
  A2AError,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { problemFor, type Logger } from '@repo/http-kit';
import type { AgentReply, ChatService, ChatReply } from '../chat/chat-service.js';
import { turnEventReader } from '../chat/turn-events.js';
import { textOf } from './rpc-params.js';

/** Thrown into a turn that was cancelled before it started: it ends before any model call. */
class TurnCancelled extends Error {}

/** Where a task's turn is: queued behind its session's earlier turns, running, or cancelled. */
type TurnState = 'waiting' | 'running' | 'cancelled';

/**
 * Runs each A2A message as one turn of POST /chat's chat service, its contextId the session. A task
 * still waiting for its session can be cancelled; a started one finishes (cancel answers -32002).
 */
export class ChatTurnExecutor implements AgentExecutor {
  private readonly turns = new Map<string, { state: TurnState; contextId: string }>();
  /** Messages that came by message/stream: only their turns stream (the others cost less). */
  readonly streamedMessages = new Set<string>();

  constructor(
    private readonly chat: ChatService,
    private readonly logger: Logger,
  ) {}

  execute = async (context: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId, userMessage } = context;
    const turn = { state: 'waiting' as TurnState, contextId };
    this.turns.set(taskId, turn);
    const task = taskEvents(bus, { taskId, contextId });
    if (!context.task) {
      bus.publish({
        kind: 'task',
        id: taskId,
        contextId,
        status: { state: 'submitted', timestamp: new Date().toISOString() },
        history: [userMessage],
      });
    }
    const read = turnEventReader();
    // Text streams into the reply artifact; the specialist and tool calls are working updates.
    let streamed = false;
    const onEvent = (event: Parameters<typeof read>[0]) => {
      for (const turnEvent of read(event)) {
        if (turnEvent.event === 'delta') {
          task.reply([textPart(turnEvent.data.text)], streamed, false);
          streamed = true;
          continue;
        }
        const { event: name, data } = turnEvent;
        const shown = name === 'tool_result' ? { ...data, result: undefined } : data;
        task.status('working', [{ kind: 'data', data: { event: name, ...shown } }]);
      }
    };
    try {
      const watch = this.streamedMessages.delete(userMessage.messageId);
      const reply = await this.chat.send(contextId, textOf(userMessage), {
        onStart: () => {
          if (turn.state === 'cancelled') throw new TurnCancelled();
          turn.state = 'running';
          task.status('working');
        },
        ...(watch ? { onEvent } : {}),
      });
      if ('mode' in reply) {
        // A person holds the conversation: the message went to them, and no agent answers it.
        task.status('input-required', heldParts(reply), true);
        return;
      }
      const parts = replyParts(reply);
      task.reply(parts, false, true);
      task.status('completed', parts, true);
    } catch (error) {
      if (error instanceof TurnCancelled) return;
      const problem = problemFor(error);
      this.logger.warn({ err: error, session_id: contextId, task_id: taskId }, 'A2A turn failed');
      const text = problem.detail ?? 'The turn failed.';
      task.status('failed', [textPart(text), { kind: 'data', data: { error: problem } }], true);
    } finally {
      this.turns.delete(taskId);
      bus.finished();
    }
  };

  /** Whether a task's turn is queued or running on this instance. */
  isActive(taskId: string): boolean {
    return this.turns.has(taskId);
  }

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const turn = this.turns.get(taskId);
    // A started turn runs to its end: refuse now, or the SDK would hold the answer until then.
    if (!turn || turn.state !== 'waiting') throw A2AError.taskNotCancelable(taskId);
    turn.state = 'cancelled';
    const text = textPart('Cancelled before the turn started.');
    taskEvents(bus, { taskId, contextId: turn.contextId }).status('canceled', [text], true);
    bus.finished();
  };
}

const textPart = (text: string): Part => ({ kind: 'text', text });

/** A task's events: status updates (with an agent message of `parts`), and its reply artifact. */
function taskEvents(bus: ExecutionEventBus, task: { taskId: string; contextId: string }) {
  const message = (parts: Part[]): Message => ({
    kind: 'message',
    role: 'agent',
    messageId: randomUUID(),
    ...task,
    parts,
  });
  return {
    status: (state: TaskState, parts?: Part[], final = false) =>
      bus.publish({
        kind: 'status-update',
        ...task,
        status: {
          state,
          timestamp: new Date().toISOString(),
          ...(parts ? { message: message(parts) } : {}),
        },
        final,
      }),
    /** Streamed deltas appended (`append`), or the whole reply at the end (`lastChunk`). */
    reply: (parts: Part[], append: boolean, lastChunk: boolean) =>
      bus.publish({
        kind: 'artifact-update',
        ...task,
        artifact: { artifactId: 'reply', name: 'reply', parts },
        append,
        lastChunk,
      }),
  };
}

/** A message to a conversation a person holds: their answer comes in the session, not the task. */
function heldParts(reply: Extract<ChatReply, { mode: 'human' }>): Part[] {
  return [
    textPart(
      `A person (${reply.operator}) has taken this conversation over; your message was passed ` +
        'on to them. Their replies are in the conversation, not in this task.',
    ),
    {
      kind: 'data',
      data: { event: 'human_takeover', operator: reply.operator, session_id: reply.session_id },
    },
  ];
}

/** The reply as POST /chat gives it: the text, who answered (and the ticket), and any citations. */
function replyParts(reply: AgentReply): Part[] {
  return [
    textPart(reply.reply),
    {
      kind: 'data',
      data: {
        agent: reply.agent,
        session_id: reply.session_id,
        ...(reply.ticket_id ? { ticket_id: reply.ticket_id } : {}),
      },
    },
    ...(reply.sources?.length
      ? [{ kind: 'data' as const, data: { citations: reply.sources } }]
      : []),
  ];
}

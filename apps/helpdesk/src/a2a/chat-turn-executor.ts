import { randomUUID } from 'node:crypto';
import type {
  Message,
  Part,
  TaskArtifactUpdateEvent,
  TaskState,
  TaskStatusUpdateEvent,
} from '@a2a-js/sdk';
import {
  A2AError,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import type { Logger } from '@repo/http-kit';
import type { AgentReply, ChatService, ChatReply } from '../chat/chat-service.js';
import { problemOf } from '../chat/turn-errors.js';
import { turnEventReader, type TurnEvent } from '../chat/turn-events.js';
import { textOf } from './message-input.js';

/** The artifact a task's reply streams into: text deltas appended, replaced whole at the end. */
const REPLY_ARTIFACT_ID = 'reply';

/** Thrown into a turn that was cancelled before it started: it ends before any model call. */
class TurnCancelled extends Error {
  constructor() {
    super('The task was cancelled before its turn started.');
    this.name = 'TurnCancelled';
  }
}

/** Where a task's turn is: queued behind its session's earlier turns, running, or cancelled. */
type TurnState = 'waiting' | 'running' | 'cancelled';

/** The task an event belongs to, and its context (the helpdesk session). */
type TaskRef = { taskId: string; contextId: string };

/**
 * Runs each A2A message as one helpdesk turn through the chat service of POST /chat, its contextId
 * the session (so one context's turns are serialized), streamed as A2A events. A task still waiting
 * for its session can be cancelled; a started one finishes, its cancel refused at once (-32002).
 */
export class ChatTurnExecutor implements AgentExecutor {
  private readonly turns = new Map<string, { state: TurnState; contextId: string }>();
  /** Messages that came by message/stream: only their turns stream (non-streaming calls cost less). */
  readonly streamedMessages = new Set<string>();

  constructor(
    private readonly chat: ChatService,
    private readonly logger: Logger,
  ) {}

  execute = async (context: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = context;
    const task: TaskRef = { taskId, contextId };
    const turn = { state: 'waiting' as TurnState, contextId };
    this.turns.set(taskId, turn);
    const status = (state: TaskState, message?: Message, final = false) =>
      bus.publish(statusUpdate(task, state, message, final));
    if (!context.task) {
      bus.publish({
        kind: 'task',
        id: taskId,
        contextId,
        status: { state: 'submitted', timestamp: new Date().toISOString() },
        history: [context.userMessage],
      });
    }
    const read = turnEventReader();
    let streamed = false;
    const watch = this.streamedMessages.delete(context.userMessage.messageId);
    try {
      const reply = await this.chat.send(contextId, textOf({ message: context.userMessage }), {
        onStart: () => {
          if (turn.state === 'cancelled') throw new TurnCancelled();
          turn.state = 'running';
          status('working');
        },
        ...(watch
          ? {
              onEvent: (event) => {
                for (const turnEvent of read(event)) {
                  streamed = this.publishProgress(bus, task, turnEvent, streamed);
                }
              },
            }
          : {}),
      });
      if ('mode' in reply) {
        // A person holds the conversation: the message went to them, and no agent answers it.
        status('input-required', agentMessage(task, heldParts(reply)), true);
        return;
      }
      const parts = replyParts(reply);
      bus.publish(replyUpdate(task, parts, { append: false, lastChunk: true }));
      status('completed', agentMessage(task, parts), true);
    } catch (error) {
      if (error instanceof TurnCancelled) return;
      const problem = problemOf(error);
      this.logger.warn({ err: error, session_id: contextId, task_id: taskId }, 'A2A turn failed');
      const parts: Part[] = [
        { kind: 'text', text: problem.detail ?? 'The turn failed.' },
        { kind: 'data', data: { error: problem } },
      ];
      status('failed', agentMessage(task, parts), true);
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
    const task: TaskRef = { taskId, contextId: turn.contextId };
    const parts: Part[] = [{ kind: 'text', text: 'Cancelled before the turn started.' }];
    bus.publish(statusUpdate(task, 'canceled', agentMessage(task, parts), true));
    bus.finished();
  };

  /** Text as it streams into the reply artifact; the specialist and tool calls as working updates. */
  private publishProgress(
    bus: ExecutionEventBus,
    task: TaskRef,
    event: TurnEvent,
    streamed: boolean,
  ): boolean {
    if (event.event === 'delta') {
      const parts: Part[] = [{ kind: 'text', text: event.data.text }];
      bus.publish(replyUpdate(task, parts, { append: streamed, lastChunk: false }));
      return true;
    }
    const data = event.event === 'tool_result' ? { ...event.data, result: undefined } : event.data;
    const parts: Part[] = [{ kind: 'data', data: { event: event.event, ...data } }];
    bus.publish(statusUpdate(task, 'working', agentMessage(task, parts), false));
    return streamed;
  }
}

function statusUpdate(
  task: TaskRef,
  state: TaskState,
  message: Message | undefined,
  final: boolean,
): TaskStatusUpdateEvent {
  return {
    kind: 'status-update',
    ...task,
    status: { state, timestamp: new Date().toISOString(), ...(message ? { message } : {}) },
    final,
  };
}

/** Parts of the reply artifact: streamed deltas appended, or the whole reply at the end. */
function replyUpdate(
  task: TaskRef,
  parts: Part[],
  chunk: { append: boolean; lastChunk: boolean },
): TaskArtifactUpdateEvent {
  const artifact = { artifactId: REPLY_ARTIFACT_ID, name: 'reply', parts };
  return { kind: 'artifact-update', ...task, artifact, ...chunk };
}

function agentMessage(task: TaskRef, parts: Part[]): Message {
  return { kind: 'message', role: 'agent', messageId: randomUUID(), ...task, parts };
}

/**
 * A message to a conversation a person holds: it was passed on to them, and their answer comes
 * in the conversation (GET /sessions/{contextId}), not in this task, which ends `input-required`.
 */
function heldParts(reply: Extract<ChatReply, { mode: 'human' }>): Part[] {
  return [
    {
      kind: 'text',
      text:
        `A person (${reply.operator}) has taken this conversation over; your message was passed ` +
        'on to them. Their replies are in the conversation, not in this task.',
    },
    {
      kind: 'data',
      data: { event: 'human_takeover', operator: reply.operator, session_id: reply.session_id },
    },
  ];
}

/** The reply as POST /chat gives it: the text, who answered (and the ticket), and any citations. */
function replyParts(reply: AgentReply): Part[] {
  return [
    { kind: 'text', text: reply.reply },
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

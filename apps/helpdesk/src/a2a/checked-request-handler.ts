import type { AgentCard, MessageSendParams, TaskIdParams, TaskQueryParams } from '@a2a-js/sdk';
import {
  A2AError,
  DefaultRequestHandler,
  type ServerCallContext,
  type TaskStore,
} from '@a2a-js/sdk/server';
import type { ChatTurnExecutor } from './chat-turn-executor.js';
import {
  checkMessage,
  checkParams,
  taskIdParamsSchema,
  taskQueryParamsSchema,
} from './rpc-params.js';

/**
 * The SDK's request handler, with each method's params checked first (the SDK trusts their shape)
 * and streamed messages marked so that only their turns stream (the executor's `streamedMessages`).
 */
export class CheckedRequestHandler extends DefaultRequestHandler {
  constructor(
    card: AgentCard,
    private readonly store: TaskStore,
    private readonly executor: ChatTurnExecutor,
  ) {
    super(card, store, executor);
  }

  /**
   * The message as POST /chat checks it; one naming a task whose turn has not ended is refused (the
   * SDK would mix the two turns' events). Reference tasks not held here are dropped quietly (the SDK
   * would skip them after a stderr line with the caller's id).
   */
  private async checked(params: MessageSendParams): Promise<MessageSendParams> {
    checkMessage(params);
    const { taskId, referenceTaskIds } = params.message;
    if (taskId && this.executor.isActive(taskId))
      throw A2AError.invalidRequest(
        `Task ${taskId} has a turn that has not ended: send the next message once it has.`,
        { code: 'task_busy' },
      );
    if (!referenceTaskIds?.length) return params;
    const known = [];
    for (const id of referenceTaskIds) if (await this.store.load(id)) known.push(id);
    return { ...params, message: { ...params.message, referenceTaskIds: known } };
  }

  override async sendMessage(params: MessageSendParams, context?: ServerCallContext) {
    return super.sendMessage(await this.checked(params), context);
  }

  override async *sendMessageStream(params: MessageSendParams, context?: ServerCallContext) {
    const checked = await this.checked(params);
    this.executor.streamedMessages.add(checked.message.messageId);
    try {
      yield* super.sendMessageStream(checked, context);
    } finally {
      // Normally taken by the executor; left only when the SDK refused the message first.
      this.executor.streamedMessages.delete(checked.message.messageId);
    }
  }

  override getTask(params: TaskQueryParams, context?: ServerCallContext) {
    checkParams(taskQueryParamsSchema, params);
    return super.getTask(params, context);
  }

  override cancelTask(params: TaskIdParams, context?: ServerCallContext) {
    checkParams(taskIdParamsSchema, params);
    return super.cancelTask(params, context);
  }

  override async *resubscribe(params: TaskIdParams, context?: ServerCallContext) {
    checkParams(taskIdParamsSchema, params);
    yield* super.resubscribe(params, context);
  }
}

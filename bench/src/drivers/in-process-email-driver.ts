import { randomUUID } from 'node:crypto';
import { MemorySaver, type BaseCheckpointSaver } from '@langchain/langgraph';
import { createEmailGraph, createOpenAiClient, type EmailGraph } from 'email-review';
import type { StepTimer } from '../load/step-timer.js';
import type { EmailDriver } from './email-driver.js';

/**
 * The framework alone: email-review's compiled graph invoked in the bench's own process on
 * LangGraph's MemorySaver, with no HTTP server and none of the service around it (thread index,
 * locks, outbox; `send` delivers nowhere). What it adds over its model calls is the floor that
 * LangGraph and the openai SDK set for the service. Concurrently it shares the bench's
 * event loop with the load generator, whose own part is a counter and a timer per iteration.
 */
export class InProcessEmailDriver implements EmailDriver {
  private readonly graph: EmailGraph;

  /** `checkpointer`: LangGraph's MemorySaver unless given (the patches scenario passes the service's PostgreSQL one). */
  constructor(openAiBaseUrl: string, checkpointer: BaseCheckpointSaver = new MemorySaver()) {
    const llm = createOpenAiClient({
      apiKey: 'bench-key',
      // The emulator answers whatever model is named.
      model: 'bench-model',
      baseURL: openAiBaseUrl,
      timeoutMs: 30_000,
      maxRetries: 0,
    });
    this.graph = createEmailGraph(
      { llm, model: 'bench-model', mailer: { send: async () => {} } },
      checkpointer,
    );
  }

  async lifecycle(inbound: string, timer: StepTimer): Promise<void> {
    // As the service runs it: one checkpoint when a run stops.
    const config = { configurable: { thread_id: randomUUID() }, durability: 'exit' as const };
    const paused = await timer.time('create', () => this.graph.invoke({ inbound }, config));
    if (!paused.reply) throw new Error('the graph paused without a draft');
    await timer.time('get', () => this.graph.getState(config));
    const sent = await timer.time('approve', () => this.graph.invoke(null, config));
    if (!sent.sent) throw new Error('the graph finished without sending');
  }

  close(): void {}
}

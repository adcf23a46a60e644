import type { BaseLlm } from '@google/adk';
import { HttpError, modelCallMetrics, type Tracing } from '@repo/http-kit';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { ChatService } from '../chat/chat-service.js';
import { setAdkSpanContent } from './adk-span-content.js';
import { MetricsPlugin } from './metrics-plugin.js';
import { ObservedModel } from './observed-model.js';

/**
 * Metrics (with a registry) and model-call spans (with tracing on): the model wrapper, the ADK
 * plugin and the chat service wrapper that feed them. ADK's own spans join the same traces.
 */
export function helpdeskTelemetry(options: {
  registry?: Registry | undefined;
  provider: string;
  tracing?: Tracing | undefined;
}) {
  const tracing = options.tracing?.enabled ? options.tracing : undefined;
  if (tracing) setAdkSpanContent(tracing.captureContent);
  const observers = {
    report: options.registry && modelCallMetrics(options.registry),
    tracing: tracing && { captureContent: tracing.captureContent },
  };
  const model = (inner: BaseLlm): BaseLlm =>
    observers.report || observers.tracing
      ? new ObservedModel(inner, options.provider, observers)
      : inner;
  const { registry } = options;
  if (!registry) return { model, plugins: [], chat: (chat: ChatService) => chat };
  return { model, plugins: [new MetricsPlugin(registry)], chat: observedChat(registry) };
}

/** The chat service counting its turns, failures and 429s, and the sessions it holds. */
function observedChat(registry: Registry) {
  const turns = new Counter({
    name: 'helpdesk_turns_total',
    help: 'Turns answered, by the agent whose text ended the turn.',
    labelNames: ['agent'] as const,
    registers: [registry],
  });
  const failedTurns = new Counter({
    name: 'helpdesk_turns_failed_total',
    help: 'Turns that produced no reply, by code (model_timeout, model_error, agent_error, empty_reply, …).',
    labelNames: ['code'] as const,
    registers: [registry],
  });
  const busy = new Counter({
    name: 'helpdesk_session_busy_total',
    help: 'Messages refused with 429 session_busy (too many waiting, or the session lock not free in time).',
    registers: [registry],
  });
  return (chat: ChatService): ChatService => {
    new Gauge({
      name: 'helpdesk_sessions',
      help: 'Sessions kept and not expired: in this process (memory mode) or in PostgreSQL, every instance’s.',
      registers: [registry],
      async collect() {
        // The database away: the scrape still answers, with the last count.
        await chat
          .countSessions()
          .then((count) => this.set(count))
          .catch(() => undefined);
      },
    });
    return {
      ...chat,
      async send(...args) {
        try {
          const reply = await chat.send(...args);
          if ('agent' in reply) turns.inc({ agent: reply.agent });
          return reply;
        } catch (error) {
          if (error instanceof HttpError && error.status === 429) busy.inc();
          else failedTurns.inc({ code: error instanceof HttpError ? error.code : 'error' });
          throw error;
        }
      },
    };
  };
}

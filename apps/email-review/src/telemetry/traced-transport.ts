import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { MailTransport } from '../delivery/mail-transport.js';

/** The mail transport with a span for each delivery attempt (SMTP or log). */
export function tracedTransport(transport: MailTransport): MailTransport {
  const tracer = trace.getTracer('email-review');
  return {
    kind: transport.kind,
    send: (message) =>
      tracer.startActiveSpan(
        `deliver ${transport.kind}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'email_review.thread_id': message.thread_id,
            'messaging.system': transport.kind,
          },
        },
        async (span) => {
          try {
            return await transport.send(message);
          } catch (error) {
            span.setStatus({
              code: SpanStatusCode.ERROR,
              message: error instanceof Error ? error.message : String(error),
            });
            throw error;
          } finally {
            span.end();
          }
        },
      ),
    close: () => transport.close(),
  };
}

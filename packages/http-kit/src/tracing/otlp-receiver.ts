import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/HTTP JSON export carries it, its attributes as plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string | undefined;
  name: string;
  scope: string;
  attributes: Record<string, unknown>;
  /** The attributes of the resource that sent it: `service.name`, … */
  resource: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}
type OtlpAttributes = Array<{ key: string; value: OtlpValue }>;
interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttributes };
    scopeSpans?: Array<{
      scope?: { name?: string };
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        attributes?: OtlpAttributes;
      }>;
    }>;
  }>;
}

const plain = (attributes: OtlpAttributes = []) =>
  Object.fromEntries(attributes.map((a) => [a.key, valueOf(a.value)]));

function valueOf(value: OtlpValue): unknown {
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return value.stringValue ?? value.doubleValue ?? value.boolValue;
}

/**
 * A real OTLP/HTTP receiver for the JSON protocol (POST /v1/traces), keeping every span it is sent:
 * what tests and the bench point OTEL_EXPORTER_OTLP_ENDPOINT at.
 */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const resource = plain(resourceSpans.resource?.attributes);
        for (const scope of resourceSpans.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              name: span.name,
              scope: scope.scope?.name ?? '',
              attributes: plain(span.attributes),
              resource,
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    /** The names of `span` and its ancestors, up to its trace's root (as far as received). */
    ancestry(span: ReceivedSpan): string[] {
      const names: string[] = [];
      for (let at: ReceivedSpan | undefined = span; at;) {
        names.push(at.name);
        const parentId: string | undefined = at.parentSpanId;
        at = parentId ? spans.find((s) => s.spanId === parentId) : undefined;
      }
      return names;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

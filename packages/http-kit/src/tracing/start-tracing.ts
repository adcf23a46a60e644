import { patchModules } from './library-instrumentations.js';

/** Where spans go: the standard OTLP endpoints (OTEL_EXPORTER_OTLP_ENDPOINT, …_TRACES_ENDPOINT). */
export interface TracingSettings {
  /** `service.name` unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES names the service. */
  serviceName: string;
  /** The collector's base URL; traces go to `<endpoint>/v1/traces`. */
  endpoint?: string | undefined;
  /** The traces URL itself, when it is not `<endpoint>/v1/traces`. */
  tracesEndpoint?: string | undefined;
  /** Prompt and reply text on model spans (OTEL_CAPTURE_CONTENT); off by default. */
  captureContent?: boolean | undefined;
}

/** Libraries the service uses whose standard instrumentation should patch them. */
export interface TracedLibraries {
  /** The `pg` module object the service imports (its Client and Pool are patched). */
  pg?: { Pool: unknown; Client: unknown } | undefined;
}

export interface Tracing {
  enabled: boolean;
  captureContent: boolean;
  /** Sends the spans still buffered (tests; shutdown does it too). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

export const TRACING_OFF: Tracing = {
  enabled: false,
  captureContent: false,
  flush: async () => {},
  shutdown: async () => {},
};

const SEMCONV_OPT_IN = 'OTEL_SEMCONV_STABILITY_OPT_IN';

/**
 * OpenTelemetry's Node SDK exporting spans over OTLP/HTTP (JSON), when an endpoint is set, with
 * the standard instrumentations of HTTP (a server span per request, a client span per outgoing
 * http(s) request) and, given `libraries.pg`, of PostgreSQL (a span per query inside a trace).
 * Without an endpoint, nothing is loaded, patched or registered: every span the code starts is the
 * API's no-op. The SDK reads the other standard variables itself (OTEL_SERVICE_NAME,
 * OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER, OTEL_EXPORTER_OTLP_HEADERS, …); `serviceName` is
 * only the default of `service.name`. Libraries that trace through @opentelemetry/api (ADK does)
 * join the same traces. `shutdown` also takes the patches back.
 */
export async function startTracing(
  settings: TracingSettings,
  libraries: TracedLibraries = {},
): Promise<Tracing> {
  const url =
    settings.tracesEndpoint ??
    (settings.endpoint ? `${settings.endpoint.replace(/\/+$/, '')}/v1/traces` : undefined);
  if (!url) return TRACING_OFF;
  const [sdkNode, { OTLPTraceExporter }, { HttpInstrumentation }, pg, http, https] =
    await Promise.all([
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/instrumentation-http'),
      libraries.pg && import('@opentelemetry/instrumentation-pg'),
      import('node:http'),
      import('node:https'),
    ]);
  const { NodeSDK, resources, tracing } = sdkNode;
  const processor = new tracing.BatchSpanProcessor(new OTLPTraceExporter({ url }));
  const sdk = new NodeSDK({
    // Under what the environment detector finds: OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win.
    resource: resources
      .defaultResource()
      .merge(resources.resourceFromAttributes({ 'service.name': settings.serviceName })),
    spanProcessors: [processor],
    instrumentations: [],
  });
  sdk.start();
  // The instrumentations read the standard opt-in from the environment only, when they are
  // constructed. Unset, their default is the old conventions (`http.method`, `db.statement`); this
  // project's spans have always had the stable ones (`http.request.method`, `db.query.text`).
  process.env[SEMCONV_OPT_IN] ??= 'http,database';
  // The modules' own objects (what `require` returns), not their ESM namespaces.
  const unpatch = [
    patchModules(new HttpInstrumentation({ enabled: false }), {
      http: http.default,
      https: https.default,
    }),
  ];
  if (pg && libraries.pg)
    unpatch.push(
      // Queries outside any trace (the queue's polling, the sweeps) would each be a trace of one span.
      patchModules(new pg.PgInstrumentation({ enabled: false, requireParentSpan: true }), {
        pg: libraries.pg,
        // pg's Pool is a subclass of pg-pool's (pg@8 lib/index.js), whose connect this wraps.
        'pg-pool': Object.getPrototypeOf(libraries.pg.Pool),
      }),
    );
  let stopped: Promise<void> | undefined;
  return {
    enabled: true,
    captureContent: settings.captureContent ?? false,
    flush: () => processor.forceFlush(),
    shutdown: () =>
      (stopped ??= (async () => {
        for (const undo of unpatch) undo();
        await sdk.shutdown();
      })()),
  };
}

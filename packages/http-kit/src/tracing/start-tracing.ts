/** Where spans go: the standard OTLP endpoints (OTEL_EXPORTER_OTLP_ENDPOINT, …_TRACES_ENDPOINT). */
export interface TracingSettings {
  serviceName: string;
  /** The collector's base URL; traces go to `<endpoint>/v1/traces`. */
  endpoint?: string | undefined;
  /** The traces URL itself, when it is not `<endpoint>/v1/traces`. */
  tracesEndpoint?: string | undefined;
  /** Prompt and reply text on model spans (OTEL_CAPTURE_CONTENT); off by default. */
  captureContent?: boolean | undefined;
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

/**
 * OpenTelemetry's Node SDK exporting spans over OTLP/HTTP (JSON), when an endpoint is set. Without
 * one, nothing is loaded and nothing is registered: every span the code starts is the API's no-op,
 * and the HTTP span middleware is not even mounted. The SDK reads the other standard variables
 * itself (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER, OTEL_EXPORTER_OTLP_HEADERS, …).
 * Libraries that trace through @opentelemetry/api (ADK does) join the same traces.
 */
export async function startTracing(settings: TracingSettings): Promise<Tracing> {
  const url =
    settings.tracesEndpoint ??
    (settings.endpoint ? `${settings.endpoint.replace(/\/+$/, '')}/v1/traces` : undefined);
  if (!url) return TRACING_OFF;
  const [{ NodeSDK, tracing }, { OTLPTraceExporter }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
  ]);
  const processor = new tracing.BatchSpanProcessor(new OTLPTraceExporter({ url }));
  const sdk = new NodeSDK({
    serviceName: settings.serviceName,
    spanProcessors: [processor],
    instrumentations: [],
  });
  sdk.start();
  return {
    enabled: true,
    captureContent: settings.captureContent ?? false,
    flush: () => processor.forceFlush(),
    shutdown: () => sdk.shutdown(),
  };
}

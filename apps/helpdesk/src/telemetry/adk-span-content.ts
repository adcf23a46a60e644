/**
 * @google/adk@1.2.0 writes whole model requests and responses, tool arguments and results onto its
 * spans (`gcp.vertex.agent.llm_request`, …) unless ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS is false,
 * which it reads on each span (src/telemetry/tracing.js, shouldAddRequestResponseToSpans; its
 * default is "true"). This service records message text only with OTEL_CAPTURE_CONTENT=true, so
 * the variable follows that setting. Process-wide, as ADK's own setting is.
 * Guarded by: test/tracing.test.ts (no prompt text in any span by default).
 */
export function setAdkSpanContent(capture: boolean): void {
  process.env['ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS'] = capture ? 'true' : 'false';
}

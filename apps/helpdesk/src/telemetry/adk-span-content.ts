/**
 * @google/adk@1.2.0 puts whole prompts, replies and tool results on its spans unless
 * ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS is false; it follows OTEL_CAPTURE_CONTENT here,
 * process-wide as ADK's setting is. Register entry `adk-span-content`; guarded by test/tracing.test.ts.
 */
export function setAdkSpanContent(capture: boolean): void {
  process.env['ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS'] = capture ? 'true' : 'false';
}

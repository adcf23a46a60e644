import { BaseTracer, type Run } from '@langchain/core/tracers/base';
import { getConfig, isGraphInterrupt } from '@langchain/langgraph';
import { context, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';

interface RunSpan {
  span: Span;
  /** The node the span is for; none for the graph's own span. */
  node?: string;
}

/** A node's own run (not one of its inner runnables), LangGraph's `__start__` and the like aside. */
const isNodeRun = (node: unknown, run: Run): node is string =>
  typeof node === 'string' && node === run.name && !node.startsWith('__');

/**
 * Spans for the workflow from LangChain's `BaseTracer`: one per graph run, and under it one per node.
 * A tracer does not run the node, so the model call inside it finds the node's span through
 * `contextOfCurrentNode` (LangGraph's `getConfig()`). No maintained instrumentation gives these
 * (register: packages/http-kit/src/framework-patches.ts, `langgraph-graph-spans`).
 */
export class GraphSpans extends BaseTracer {
  name = 'opentelemetry-graph-spans';
  // Spans must exist before the node runs (LangChain otherwise runs callbacks in the background).
  override awaitHandlers = true;
  private readonly spans = new Map<string, RunSpan>();
  private readonly tracer = trace.getTracer('email-review');

  protected override persistRun(): Promise<void> {
    return Promise.resolve();
  }

  override onChainStart(run: Run): void {
    if (!run.parent_run_id) {
      const span = this.tracer.startSpan(`graph ${run.name}`, {
        attributes: { 'langgraph.graph': run.name },
      });
      this.spans.set(run.id, { span });
      return;
    }
    const metadata = run.extra?.['metadata'] as Record<string, unknown> | undefined;
    const node = metadata?.['langgraph_node'];
    const parent = this.spannedRun(run.parent_run_id);
    if (!isNodeRun(node, run) || parent?.node === node) return;
    const step = metadata?.['langgraph_step'];
    const span = this.tracer.startSpan(
      `node ${node}`,
      {
        attributes: {
          'langgraph.node': node,
          ...(typeof step === 'number' ? { 'langgraph.step': step } : {}),
        },
      },
      parent ? trace.setSpan(context.active(), parent.span) : context.active(),
    );
    this.spans.set(run.id, { span, node });
  }

  override onChainEnd(run: Run): void {
    this.finish(run.id);
  }

  // LangChain's BaseTracer declares this callback's five parameters.
  // eslint-disable-next-line max-params
  override async handleChainError(
    error: unknown,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    kwargs?: { inputs?: Record<string, unknown> },
  ): Promise<Run> {
    // A pause before `send` surfaces as an interrupt "error": not a failure.
    if (!isGraphInterrupt(error))
      this.spans.get(runId)?.span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.name : 'error',
      });
    return super.handleChainError(error, runId, parentRunId, tags, kwargs);
  }

  override onChainError(run: Run): void {
    this.finish(run.id);
  }

  /** The context of the node running the current code (a model call inside `draft`), if any. */
  contextOfCurrentNode(): Context | undefined {
    const callbacks = getConfig()?.callbacks;
    const runId =
      callbacks && 'getParentRunId' in callbacks ? callbacks.getParentRunId() : undefined;
    const spanned = this.spannedRun(runId);
    return spanned && trace.setSpan(context.active(), spanned.span);
  }

  /** The span of the nearest run, from `runId` up, that has one. */
  private spannedRun(runId: string | undefined): RunSpan | undefined {
    for (let id = runId; id; id = this.getRunById(id)?.parent_run_id) {
      const spanned = this.spans.get(id);
      if (spanned) return spanned;
    }
    return undefined;
  }

  private finish(runId: string) {
    this.spans.get(runId)?.span.end();
    this.spans.delete(runId);
  }
}

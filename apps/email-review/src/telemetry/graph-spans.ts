import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { AsyncLocalStorageProviderSingleton } from '@langchain/core/singletons';
import { context, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';

/** A node's own run (not one of its inner runnables), LangGraph's `__start__` and the like aside. */
const isNodeRun = (node: unknown, runName: string | undefined): node is string =>
  typeof node === 'string' && node === runName && !node.startsWith('__');

interface Run {
  parentRunId: string | undefined;
  span?: Span;
  node?: string;
}

/**
 * Spans for the workflow, from LangGraph's callbacks: one for each run of the graph, and under it
 * one for each node (`classify`, `draft`, `send`). Callbacks do not run the node, so the node's
 * span is not the active context while it runs; `contextOfCurrentNode` finds it instead, from the
 * run LangChain says is current, for the model call made inside the node.
 */
export class GraphSpans extends BaseCallbackHandler {
  name = 'opentelemetry-graph-spans';
  // Spans must exist before the node runs (LangChain otherwise runs callbacks in the background).
  override awaitHandlers = true;
  private readonly runs = new Map<string, Run>();
  private readonly tracer = trace.getTracer('email-review');

  // @langchain/core 1.4 calls this as (chain, inputs, runId, parentRunId, tags, metadata, runType,
  // runName), not in the order its type declares (runType fourth, parentRunId eighth).
  override handleChainStart(
    _chain: unknown,
    _inputs: unknown,
    runId: string,
    parentRunId?: string,
    _tags?: string[],
    metadata?: Record<string, unknown>,
    _runType?: string,
    runName?: string,
  ): void {
    const run: Run = { parentRunId };
    const node = metadata?.['langgraph_node'];
    const parent = this.spanRunOf(parentRunId);
    if (!parentRunId) {
      run.span = this.tracer.startSpan(`graph ${runName ?? 'graph'}`, {
        attributes: { 'langgraph.graph': runName ?? 'graph' },
      });
    } else if (isNodeRun(node, runName) && parent?.node !== node) {
      run.node = node;
      run.span = this.tracer.startSpan(
        `node ${node}`,
        {
          attributes: {
            'langgraph.node': node,
            ...(typeof metadata?.['langgraph_step'] === 'number'
              ? { 'langgraph.step': metadata['langgraph_step'] }
              : {}),
          },
        },
        parent?.span ? trace.setSpan(context.active(), parent.span) : context.active(),
      );
    } else if (parent?.node) {
      run.node = parent.node;
    }
    this.runs.set(runId, run);
  }

  override handleChainEnd(_outputs: unknown, runId: string): void {
    this.finish(runId);
  }

  override handleChainError(error: Error, runId: string): void {
    // A pause before `send` surfaces as an interrupt "error": not a failure.
    if (error.name !== 'GraphInterrupt')
      this.runs.get(runId)?.span?.setStatus({ code: SpanStatusCode.ERROR, message: error.name });
    this.finish(runId);
  }

  /** The context of the node running the current code (a model call inside `draft`), if any. */
  contextOfCurrentNode(): Context | undefined {
    const config = AsyncLocalStorageProviderSingleton.getRunnableConfig() as
      { callbacks?: { getParentRunId?: () => string | undefined } } | undefined;
    const span = this.spanRunOf(config?.callbacks?.getParentRunId?.())?.span;
    return span && trace.setSpan(context.active(), span);
  }

  /** The nearest run, from `runId` up, that has a span. */
  private spanRunOf(runId: string | undefined): Run | undefined {
    for (let id = runId; id;) {
      const run = this.runs.get(id);
      if (!run) return undefined;
      if (run.span) return run;
      id = run.parentRunId;
    }
    return undefined;
  }

  private finish(runId: string) {
    this.runs.get(runId)?.span?.end();
    this.runs.delete(runId);
  }
}

import { BasePlugin, type BaseTool, type Event } from '@google/adk';
import { Counter, type Registry } from 'prom-client';
import { TRANSFER_TOOL } from '../agents/agent-names.js';

/**
 * An ADK plugin (Runner's `plugins`) counting what the agents do: each tool call by tool and
 * outcome, and each transfer from one agent to another.
 */
export class MetricsPlugin extends BasePlugin {
  private readonly toolCalls: Counter<'tool' | 'outcome'>;
  private readonly transfers: Counter<'from' | 'to'>;

  constructor(registry: Registry) {
    super('metrics');
    this.toolCalls = new Counter({
      name: 'helpdesk_tool_calls_total',
      help: 'Tool calls by tool and outcome (ok, error).',
      labelNames: ['tool', 'outcome'],
      registers: [registry],
    });
    this.transfers = new Counter({
      name: 'helpdesk_transfers_total',
      help: 'Transfers of a turn from one agent to another, by agent.',
      labelNames: ['from', 'to'],
      registers: [registry],
    });
  }

  /**
   * ADK calls this after every tool call, a failed one too (its result is then null). Transfers
   * are a tool call too (`transfer_to_agent`): those are counted as transfers only.
   */
  override async afterToolCallback(params: {
    tool: BaseTool;
    result: unknown;
  }): Promise<undefined> {
    if (params.tool.name === TRANSFER_TOOL) return undefined;
    const { result } = params;
    const failed = result == null || (typeof result === 'object' && 'error' in result);
    this.toolCalls.inc({ tool: params.tool.name, outcome: failed ? 'error' : 'ok' });
    return undefined;
  }

  override async onEventCallback(params: { event: Event }): Promise<undefined> {
    const to = params.event.actions?.transferToAgent;
    if (to) this.transfers.inc({ from: params.event.author ?? 'unknown', to });
    return undefined;
  }
}

import { LlmAgent, type BaseLlm, type BaseTool } from '@google/adk';
import { adkInstruction, type SupportPrompts } from '@repo/support-profile';
import { checkServiceStatusTool, staticServices } from '../tools/check-service-status.js';
import { createTicketTool } from '../tools/create-ticket.js';
import { DeclaredFunctionTool } from '../tools/declared-function-tool.js';
import { defaultInvoiceAccess, type InvoiceAccessRule } from '../tools/invoice-access.js';
import { lookupInvoiceTool, staticInvoices } from '../tools/lookup-invoice.js';
import type { ToolSources } from '../tools/tool-sources.js';
import type { HelpCenterSearch } from '../tools/search-help-center.js';
import { searchHelpCenterTool } from '../tools/search-help-center.js';
import type { AgentName } from './agent-names.js';

/** What a deployment decides about the tools (createHelpdesk's settings). */
export interface ToolSettings {
  /** Who may see which invoice (default: tools/invoice-access.ts's defaultInvoiceAccess). */
  invoiceAccess?: InvoiceAccessRule;
  /** Where invoices and service statuses come from (default: the static demo data). */
  sources?: Partial<ToolSources>;
  /** The help center the billing and technical specialists search (default: none, no tool). */
  helpCenter?: HelpCenterSearch;
}

type SpecialistName = Exclude<AgentName, 'coordinator'>;

interface Specialist {
  name: SpecialistName;
  /** What the coordinator reads to choose the specialist. */
  description: string;
  /** The specialist's own tools, built per agent tree. */
  tools: (settings: ToolSettings) => BaseTool[];
}

const helpCenterTools = (settings: ToolSettings): BaseTool[] =>
  settings.helpCenter ? [new DeclaredFunctionTool(searchHelpCenterTool(settings.helpCenter))] : [];

export const SPECIALISTS = [
  {
    name: 'billing',
    description: 'Answers questions about invoices, charges, payments, refunds and billing.',
    tools: (settings) => [
      new DeclaredFunctionTool(
        lookupInvoiceTool(
          settings.invoiceAccess ?? defaultInvoiceAccess,
          settings.sources?.invoices ?? staticInvoices,
        ),
      ),
      ...helpCenterTools(settings),
    ],
  },
  {
    name: 'technical',
    description:
      'Handles technical problems: outages, errors, and whether a service or the API is down; ' +
      'and other questions about the product, orders, delivery and shipping.',
    tools: (settings) => [
      new DeclaredFunctionTool(
        checkServiceStatusTool(settings.sources?.services ?? staticServices),
      ),
      ...helpCenterTools(settings),
    ],
  },
  {
    name: 'escalation',
    description:
      'Takes over complaints and angry customers, and requests for a human, a person or a manager.',
    tools: () => [new DeclaredFunctionTool(createTicketTool)],
  },
] as const satisfies readonly Specialist[];

/**
 * A specialist with its tools and the profile's prompt of its name. Transfers back or sideways are
 * off so ADK's Runner starts the next message at the coordinator instead of resuming here.
 */
export function createSpecialist(
  specialist: Specialist,
  model: BaseLlm,
  prompts: Pick<SupportPrompts, SpecialistName>,
  settings: ToolSettings,
): LlmAgent {
  return new LlmAgent({
    name: specialist.name,
    description: specialist.description,
    instruction: adkInstruction(prompts[specialist.name]),
    model,
    tools: specialist.tools(settings),
    disallowTransferToParent: true,
    disallowTransferToPeers: true,
  });
}

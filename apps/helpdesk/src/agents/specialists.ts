import {
  FunctionTool,
  LlmAgent,
  type BaseLlm,
  type BaseTool,
  type ToolInputParameters,
  type ToolOptions,
} from '@google/adk';
import { checkServiceStatusTool } from '../tools/check-service-status.js';
import { createTicketTool } from '../tools/create-ticket.js';
import { defaultInvoiceAccess, type InvoiceAccessRule } from '../tools/invoice-access.js';
import { lookupInvoiceTool } from '../tools/lookup-invoice.js';
import type { AgentName } from './agent-names.js';

/** What a deployment decides about the tools (createHelpdesk's settings). */
export interface ToolSettings {
  /** Who may see which invoice (default: tools/invoice-access.ts's defaultInvoiceAccess). */
  invoiceAccess?: InvoiceAccessRule;
}

interface Specialist {
  name: Exclude<AgentName, 'coordinator'>;
  /** What the coordinator reads to choose the specialist. */
  description: string;
  instruction: string;
  /** The specialist's one tool, built per agent tree. */
  tool: (settings: ToolSettings) => BaseTool;
}

const tool =
  <T extends ToolInputParameters>(options: ToolOptions<T>) =>
  (): BaseTool =>
    new FunctionTool(options);

// Instructions are plain strings without braces: ADK treats `{name}` in them as session-state
// placeholders.
export const SPECIALISTS = [
  {
    name: 'billing',
    description: 'Answers questions about invoices, charges, payments, refunds and billing.',
    instruction: `You answer billing questions: invoices, charges, payments and refunds.
Call lookup_invoice with the invoice id the customer mentions, and the billing email if the
customer gave one, then answer in one or two sentences with the invoice id, amount, currency,
status and due date. If the customer gave no invoice id, ask for it. If the invoice is not
found, say so plainly and ask for the billing email on the invoice if the customer gave none.`,
    tool: (settings) =>
      new FunctionTool(lookupInvoiceTool(settings.invoiceAccess ?? defaultInvoiceAccess)),
  },
  {
    name: 'technical',
    description:
      'Handles technical problems: outages, errors, and whether a service or the API is down.',
    instruction: `You answer technical questions: outages, errors, and whether a service is up
or down. Call check_service_status with the service the customer asks about, then answer in one
or two sentences with its status and message. If the service is unknown, list the known ones.`,
    tool: tool(checkServiceStatusTool),
  },
  {
    name: 'escalation',
    description:
      'Takes over complaints and angry customers, and requests for a human, a person or a manager.',
    instruction: `You take over when a customer is unhappy, complains, or asks for a human or
a manager. Call create_ticket once with a one-sentence summary of the request, then apologise
briefly and give the customer the ticket id the tool returned.`,
    tool: tool(createTicketTool),
  },
] as const satisfies readonly Specialist[];

/**
 * A specialist agent with its one tool. Transfers back or sideways are disallowed so that ADK's
 * Runner starts the next message at the coordinator instead of resuming here.
 */
export function createSpecialist(
  specialist: Specialist,
  model: BaseLlm,
  settings: ToolSettings = {},
): LlmAgent {
  return new LlmAgent({
    name: specialist.name,
    description: specialist.description,
    instruction: specialist.instruction,
    model,
    tools: [specialist.tool(settings)],
    disallowTransferToParent: true,
    disallowTransferToPeers: true,
  });
}

import { LlmAgent, type BaseLlm } from '@google/adk';
import { lookupInvoiceTool } from '../tools/lookup-invoice.js';

export const BILLING_AGENT = 'billing';

// Instructions are plain strings without braces: ADK treats `{name}` in them as session-state
// placeholders.
const instruction = `You answer billing questions: invoices, charges, payments and refunds.
Call lookup_invoice with the invoice id the customer mentions, then answer in one or two
sentences with the invoice id, amount, currency, status and due date. If the customer gave no
invoice id, ask for it. If the invoice is not found, say so plainly.`;

/**
 * Billing specialist. Transfers back or sideways are disallowed so that ADK's Runner starts the
 * next message at the coordinator instead of resuming here.
 */
export function createBillingAgent(model: BaseLlm): LlmAgent {
  return new LlmAgent({
    name: BILLING_AGENT,
    description: 'Answers questions about invoices, charges, payments, refunds and billing.',
    instruction,
    model,
    tools: [lookupInvoiceTool],
    disallowTransferToParent: true,
    disallowTransferToPeers: true,
  });
}

import type { AgentCard } from '@a2a-js/sdk';

/** Where the JSON-RPC endpoint is mounted, relative to the service's base URL. */
export const A2A_PATH = '/a2a';
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';

export interface AgentCardOptions {
  /** The service's base URL as callers reach it, e.g. https://helpdesk.example (no trailing /). */
  baseUrl: string;
  version: string;
  /** Auth is on: the card names the bearer scheme every call needs. */
  auth: boolean;
}

/**
 * The helpdesk as an A2A agent: one agent whose coordinator hands each message to a specialist.
 * The skills are those specialists, with messages the coordinator routes to each.
 */
export function helpdeskAgentCard(options: AgentCardOptions): AgentCard {
  return {
    protocolVersion: '0.3.0',
    name: 'helpdesk',
    description:
      'A customer help desk: a coordinator hands each message to the billing, technical or ' +
      'escalation specialist, which answers. A contextId is a conversation (a helpdesk session): ' +
      'messages sent with the same contextId see the earlier ones.',
    url: `${options.baseUrl}${A2A_PATH}`,
    preferredTransport: 'JSONRPC',
    version: options.version,
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: 'billing',
        name: 'Billing',
        description: 'Invoices, amounts due, charges and refunds; looks invoices up by id.',
        tags: ['billing', 'invoice', 'refund'],
        examples: [
          'What is the amount due on invoice INV-1001?',
          'Was I charged twice for INV-1002?',
        ],
      },
      {
        id: 'technical',
        name: 'Technical support',
        description: 'Outages, errors and service status; checks whether a service is up.',
        tags: ['technical', 'status', 'outage'],
        examples: ['Is the API down?', 'The dashboard shows error 500 since this morning.'],
      },
      {
        id: 'escalation',
        name: 'Escalation',
        description:
          'Angry customers and requests for a human: opens a ticket, whose id the reply carries.',
        tags: ['escalation', 'ticket', 'human'],
        examples: ['I want to talk to a human manager now.', 'This is my third complaint.'],
      },
    ],
    ...(options.auth
      ? {
          securitySchemes: {
            bearer: {
              type: 'http',
              scheme: 'bearer',
              description: 'An API token (API_TOKEN / API_TOKENS) or a JWT, as for the HTTP API.',
            },
          },
          security: [{ bearer: [] }],
        }
      : {}),
  };
}

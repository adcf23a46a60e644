/** How the page names who answers. */
const AGENT_LABELS = {
  billing: 'Billing',
  technical: 'Technical support',
  escalation: 'Escalation',
  coordinator: 'Help desk',
};

export const agentLabel = (agent) => AGENT_LABELS[agent] ?? 'Help desk';

/** A tool call as one short line a customer understands. */
export function toolCallLine(name, args = {}) {
  switch (name) {
    case 'lookup_invoice':
      return `Looking up invoice ${args.invoice_id ?? ''}…`.replace(' …', '…');
    case 'check_service_status':
      return `Checking the status of ${args.service ?? 'the service'}…`;
    case 'create_ticket':
      return 'Opening a ticket for a colleague…';
    case 'search_help_center':
      return 'Searching the help center…';
    default:
      return 'Working on it…';
  }
}

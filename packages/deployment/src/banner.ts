import { redactSecrets } from '@repo/llm-config';
import type { RunMode, ServiceSpec } from './service-plan.js';
import type { Terminal } from './terminal.js';
import { emailFlowSteps, helpdeskSteps, type TryItStep } from './try-it.js';

/** What the runner calls itself: `demo` (the emulator, `pnpm demo`) or `start` (the real providers, `pnpm start`). */
export function runnerName(mode: RunMode): 'demo' | 'start' {
  return mode === 'emulator' ? 'demo' : 'start';
}

/** Which checkpointer email-review uses, as the runner can tell from the environment it passes on. */
export function storageLine(databaseUrl: string | undefined, mode: RunMode = 'emulator'): string {
  const stops = mode === 'emulator' ? 'the demo stops' : 'the services stop';
  return databaseUrl
    ? `email-review storage: postgres (DATABASE_URL=${redactSecrets(databaseUrl)}); paused threads survive restarts`
    : `email-review storage: memory (DATABASE_URL is not set); threads are lost when ${stops}`;
}

export function modeLine(mode: RunMode, emulatorUrl: string | undefined): string {
  return mode === 'emulator'
    ? `LLM provider: the local emulator at ${emulatorUrl} (dummy keys, no network needed). It gives canned, keyword-based replies: they show the flow, not a measure of any model's quality`
    : 'LLM provider: the real APIs (LLM_A_API_KEY for OpenAI, AGENT_LLM_API_KEY for Gemini)';
}

/** Where approved replies go: the demo's mail catcher, SMTP_URL, or (neither) only email-review's log. */
export function mailLine(input: { mailDir?: string; smtpUrl?: string }): string {
  if (input.mailDir)
    return `approved replies are written as .eml files to ${input.mailDir} (the demo's mail catcher)`;
  if (input.smtpUrl) return `approved replies are sent to SMTP_URL=${redactSecrets(input.smtpUrl)}`;
  return "SMTP_URL is not set, so approved replies are not sent: email-review logs 'email delivered to the log' for each (without its text)";
}

function stepLines(terminal: Terminal, steps: TryItStep[]): string[] {
  return steps.flatMap((step) => [terminal.paint(`# ${step.comment}`, 'dim'), step.command]);
}

/** What the person sees once every service is ready: where things are and what to paste to try them. */
export function readyBanner(input: {
  terminal: Terminal;
  services: ServiceSpec[];
  mode: RunMode;
  databaseUrl: string | undefined;
  withToken: boolean;
  /** Where the demo's mail catcher writes delivered replies. */
  mailDir?: string;
  /** email-review's own SMTP_URL (`pnpm start`), when there is no mail catcher. */
  smtpUrl?: string;
}): string {
  const { terminal, services, mode, withToken } = input;
  const url = (name: ServiceSpec['name']) => services.find((service) => service.name === name)?.url;
  const emailUrl = url('email-review') ?? '';
  const helpdeskUrl = url('helpdesk') ?? '';
  const rule = terminal.paint('─'.repeat(72), 'dim');
  return [
    '',
    rule,
    terminal.paint('Ready.', 'green'),
    modeLine(mode, url('llm-emulator')),
    storageLine(input.databaseUrl, mode),
    '',
    ...services.map((service) => `  ${service.name.padEnd(13)} ${service.url}`),
    `  ${'API docs'.padEnd(13)} ${emailUrl}/openapi.json  ${helpdeskUrl}/openapi.json`,
    '',
    `${terminal.paint('Review inbox:', 'bold')} open ${emailUrl}/ in a browser; threads awaiting review wait there to be edited, approved or rejected (the steps below leave one).`,
    `${terminal.paint('Customer chat:', 'bold')} open ${helpdeskUrl}/ in a browser to chat with the helpdesk's specialists as a customer would (embed it elsewhere with <script src="${helpdeskUrl}/widget.js" defer></script>).`,
    `${terminal.paint('Delivered mail:', 'bold')} ${mailLine(input)}`,
    '',
    withToken
      ? 'API_TOKEN is set: export the same API_TOKEN in the shell where you paste these.'
      : '',
    terminal.paint('Email review, in order (paste into another terminal):', 'bold'),
    ...stepLines(terminal, emailFlowSteps(emailUrl, { withToken, mailDir: input.mailDir })),
    '',
    terminal.paint(
      'Helpdesk, one message per specialist, the conversation read back, and an A2A call:',
      'bold',
    ),
    ...stepLines(terminal, helpdeskSteps(helpdeskUrl, { withToken })),
    '',
    'Press Ctrl-C to stop everything.',
    rule,
    '',
  ]
    .filter((line, index, lines) => line !== '' || lines[index - 1] !== '')
    .join('\n');
}

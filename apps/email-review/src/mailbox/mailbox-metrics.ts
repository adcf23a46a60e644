import { Counter, Gauge, type Registry } from 'prom-client';
import type { MailboxStatus } from './mailbox-reader.js';
import type { SentFiling } from './sent-folder.js';

/** The mailbox's metrics (README, Metrics), read from the reader's status on each scrape. */
export function mailboxMetrics(registry: Registry, status: MailboxStatus) {
  new Gauge({
    name: 'email_review_mailbox_connected',
    help: 'Whether this instance is reading the mailbox and connected to it (1), or not (0: standby, or the IMAP server away).',
    registers: [registry],
    collect() {
      this.set(status.state === 'connected' ? 1 : 0);
    },
  });
  new Counter({
    name: 'email_review_mailbox_messages_total',
    help: 'Mailbox messages this instance took, by outcome: thread (a thread was created or found), quarantined.',
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ outcome: 'thread' }, status.read);
      this.inc({ outcome: 'quarantined' }, status.quarantined);
    },
  });
  new Gauge({
    name: 'email_review_mailbox_lag_seconds',
    help: 'Age of the oldest mailbox message not yet taken (0 when none waits).',
    registers: [registry],
    collect() {
      this.set(status.lagSeconds);
    },
  });
  const filed = new Counter({
    name: 'email_review_mailbox_sent_copies_total',
    help: 'Copies of delivered replies for the Sent folder, by outcome: filed, failed (IMAP away; not retried), no_folder.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  return { onFiled: (outcome: SentFiling) => filed.inc({ outcome }) };
}

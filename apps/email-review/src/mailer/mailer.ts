/** A reply leaving the service. `thread_id` identifies it: a mailer must send each thread at most once. */
export interface OutgoingEmail {
  thread_id: string;
  text: string;
  sent_at: string;
}

/** Where approved replies go. Swap in an SMTP or provider-API implementation for real delivery. */
export interface Mailer {
  send(email: OutgoingEmail): Promise<void>;
}

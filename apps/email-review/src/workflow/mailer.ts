/** An approved reply, as the graph's `send` step reports it when the graph runs outside the service. */
export interface OutgoingEmail {
  thread_id: string;
  text: string;
  sent_at: string;
}

/** Hears of `send` steps run by LangGraph's own tooling (Studio logs them); real delivery is src/delivery/. */
export interface Mailer {
  send(email: OutgoingEmail): Promise<void>;
}

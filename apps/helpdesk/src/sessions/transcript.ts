import { z } from 'zod';
import { agentNameSchema } from '../agents/agent-names.js';
import { sourceSchema } from '../help-center/citations.js';

/** One message of a session as GET /sessions/{id} shows it. */
export const turnSchema = z.object({
  role: z
    .enum(['user', 'assistant', 'operator'])
    .describe('`operator`: a person who took the conversation over wrote it.'),
  agent: agentNameSchema
    .nullable()
    .describe('The agent that answered; null for the user’s own messages and a person’s.'),
  operator: z.string().optional().describe('The person who wrote it (role `operator`).'),
  text: z.string(),
  ticket_id: z.string().optional(),
  sources: z
    .array(sourceSchema)
    .optional()
    .describe('The help center articles the answer cites, with the passages it read.'),
  event_id: z
    .number()
    .int()
    .optional()
    .describe('A message sent while a person held the conversation: its id in the live events.'),
  at: z.iso.datetime(),
});

export type Turn = z.infer<typeof turnSchema>;

/** What a turn weighs in the transcript's budget: its text and its sources' passages. */
const charsOf = (turn: Turn) =>
  turn.text.length + (turn.sources ?? []).reduce((sum, source) => sum + source.text.length, 0);

export interface TranscriptLimits {
  /** Messages kept; the oldest go first. */
  maxTurns: number;
  /** Characters of message text kept; the oldest turns go first, the latest is always kept whole. */
  maxChars: number;
}

/** The messages of one session, for GET /sessions/{id}, within both limits. */
export class Transcript {
  readonly turns: Turn[] = [];
  /** Characters of text in `turns`, kept up to date. */
  private chars = 0;

  /** `turns`: a transcript kept elsewhere (the database), already within the limits. */
  constructor(
    private readonly limits: TranscriptLimits,
    turns: readonly Turn[] = [],
  ) {
    this.append(turns);
  }

  /** Appends the messages of a finished turn, then trims the oldest beyond the limits. */
  append(turns: readonly Turn[]): void {
    this.turns.push(...turns);
    this.chars += turns.reduce((sum, turn) => sum + charsOf(turn), 0);
    this.trim(turns.length);
  }

  /** Drops the oldest turns beyond the limits (never the `latest`), and a reply left at the head. */
  private trim(latest: number): void {
    const droppable = this.turns.length - latest;
    let drop = 0;
    let chars = this.chars;
    const overLimit = () =>
      this.turns.length - drop > this.limits.maxTurns || chars > this.limits.maxChars;
    const orphanReply = () => this.turns[drop]?.role === 'assistant';
    while (drop < droppable && (overLimit() || orphanReply())) {
      chars -= charsOf(this.turns[drop]!);
      drop += 1;
    }
    if (drop === 0) return;
    this.turns.splice(0, drop);
    this.chars = chars;
  }
}

import { z } from 'zod';

/** The agents of the tree, by the names ADK knows them (and events carry as `author`). */
export const agentNameSchema = z
  .enum(['billing', 'technical', 'escalation', 'coordinator'])
  .describe('The specialist that answered; coordinator only when it answered without delegating.');

export type AgentName = z.infer<typeof agentNameSchema>;

export const isAgentName = (name: string | undefined): name is AgentName =>
  agentNameSchema.safeParse(name).success;

/** ADK's own tool behind every transfer between agents. */
export const TRANSFER_TOOL = 'transfer_to_agent';

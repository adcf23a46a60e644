import { relevance } from './intents.js';
import type { TextIndex } from './text-index.js';
import type { ToolCall, ToolSpec } from './task.js';

export const TRANSFER_TOOL = 'transfer_to_agent';

interface AgentInfo {
  name: string;
  description: string;
}

/** Agents listed by ADK's agent-transfer instruction ("Agent name: … / Agent description: …"). */
export function listedAgents(system: string): AgentInfo[] {
  const agents: AgentInfo[] = [];
  for (const m of system.matchAll(/Agent name:\s*(\S+)\s*\n\s*Agent description:\s*([^\n]*)/g)) {
    if (m[1]) agents.push({ name: m[1], description: m[2] ?? '' });
  }
  return agents;
}

/** The agent's own identity from ADK's identity instruction, used to decide whether it should keep the question. */
function selfDescription(system: string): string {
  const name = /Your internal name is "([^"]*)"/.exec(system)?.[1] ?? '';
  const description = /The description about you is "([^"]*)"/.exec(system)?.[1] ?? '';
  return `${name} ${description}`.trim();
}

function agentNameParameter(tool: ToolSpec): { key: string; options: unknown[] | undefined } {
  const props = (tool.parameters?.['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  const entry = Object.entries(props)[0];
  return {
    key: entry?.[0] ?? 'agentName',
    options: Array.isArray(entry?.[1]?.['enum']) ? entry[1]['enum'] : undefined,
  };
}

/**
 * The transfer to make, if any: to the listed agent that best matches the user's text, unless nothing matches
 * or the current agent (having tools of its own) matches at least as well.
 */
export function chooseTransfer(
  tool: ToolSpec,
  system: string,
  text: TextIndex,
  hasOwnTools: boolean,
): ToolCall | undefined {
  const param = agentNameParameter(tool);
  const agents = listedAgents(system).filter(
    (a) => !param.options || param.options.includes(a.name),
  );
  const candidates =
    agents.length > 0
      ? agents
      : (param.options ?? []).map((n) => ({ name: String(n), description: '' }));
  let best: AgentInfo | undefined;
  let bestScore = 0;
  for (const agent of candidates) {
    const score = relevance(`${agent.name} ${agent.description}`, text);
    if (score > bestScore) {
      best = agent;
      bestScore = score;
    }
  }
  if (!best) return undefined;
  const self = selfDescription(system);
  if (hasOwnTools && self && relevance(self, text) >= bestScore) return undefined;
  return { name: tool.name, args: { [param.key]: best.name } };
}

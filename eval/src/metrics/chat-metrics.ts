import { userText, type ChatCase, type ChatTurn } from '../datasets/schema.js';
import type { ChatOutcome, TurnOutcome } from '../runners/run-chat-case.js';
import { precisionRecall, ratio, type MetricValue } from './aggregate.js';
import type { KnowledgeBase } from './knowledge-base.js';
import { checkReply, type ReplyChecks } from './reply-checks.js';
import { replyMetrics } from './reply-metrics.js';

export interface TurnResult {
  message: string;
  expected_agent: string;
  agent_ok: boolean;
  /** Expected tool uses found in order by name, and of those, the ones whose listed arguments match. */
  tools_expected: number;
  tools_found: number;
  tools_args_ok: number;
  outcome: TurnOutcome;
  checks: ReplyChecks | null;
}

export interface ChatCaseResult {
  id: string;
  about: string;
  escalation_expected: boolean;
  escalated: boolean;
  turns: TurnResult[];
}

/** Same value: strings compared trimmed and case-insensitively, anything else as JSON. */
function sameArg(expected: unknown, actual: unknown): boolean {
  if (typeof expected === 'string' && typeof actual === 'string') {
    return expected.trim().toLowerCase() === actual.trim().toLowerCase();
  }
  return JSON.stringify(expected) === JSON.stringify(actual);
}

/**
 * ADK's trajectory match, in order: each expected tool use must be found by name after the previous
 * one (other calls may come between); its listed arguments are then compared (arguments the case
 * does not list are not checked).
 */
export function matchToolUses(
  expected: ChatTurn['intermediate_data']['tool_uses'],
  actual: TurnOutcome['tool_calls'],
): { found: number; argsOk: number } {
  let from = 0;
  let found = 0;
  let argsOk = 0;
  for (const use of expected) {
    const index = actual.findIndex((call, i) => i >= from && call.name === use.name);
    if (index < 0) continue;
    from = index + 1;
    found += 1;
    if (Object.entries(use.args).every(([key, value]) => sameArg(value, actual[index]!.args[key])))
      argsOk += 1;
  }
  return { found, argsOk };
}

export function scoreChatCases(
  cases: ChatCase[],
  outcomes: ChatOutcome[],
  kb: KnowledgeBase,
  knowledge: { exposed: boolean; note: string },
): { metrics: Record<string, MetricValue>; rows: ChatCaseResult[] } {
  const rows = cases.map((testCase, index): ChatCaseResult => {
    const turns = testCase.conversation.map((turn, t): TurnResult => {
      const outcome = outcomes[index]!.turns[t]!;
      const matched = matchToolUses(turn.intermediate_data.tool_uses, outcome.tool_calls);
      const passages = outcome.sources
        ? new Map(outcome.sources.map((source) => [source.slug, source.text] as const))
        : undefined;
      return {
        message: userText(turn),
        expected_agent: turn.expected_agent,
        agent_ok: outcome.agent === turn.expected_agent,
        tools_expected: turn.intermediate_data.tool_uses.length,
        tools_found: matched.found,
        tools_args_ok: matched.argsOk,
        outcome,
        checks: outcome.reply
          ? checkReply(
              outcome.reply,
              { ...turn, golden_reply: turn.final_response?.parts[0]?.text },
              kb,
              passages,
            )
          : null,
      };
    });
    return {
      id: testCase.eval_id,
      about: testCase.about,
      escalation_expected: testCase.escalation,
      escalated: turns.some((turn) => turn.outcome.ticket_id !== null),
      turns,
    };
  });
  const turns = rows.flatMap((row) => row.turns);
  const sum = (pick: (turn: TurnResult) => number) =>
    turns.reduce((total, turn) => total + pick(turn), 0);
  const escalation = precisionRecall(
    rows.map((row) => ({ expected: row.escalation_expected, actual: row.escalated })),
  );
  const language = new Map(cases.map((c) => [c.eval_id, c.language] as const));
  const replies = rows.flatMap((row) =>
    row.turns.flatMap((turn) =>
      turn.checks ? [{ checks: turn.checks, expectedLanguage: language.get(row.id)! }] : [],
    ),
  );
  const metrics: Record<string, MetricValue> = {
    'chat.failed_turns': {
      value: turns.filter((turn) => turn.outcome.error).length,
      n: turns.length,
    },
    'chat.routing_turn_accuracy': ratio(
      turns.filter((turn) => turn.agent_ok).length,
      turns.length,
      'no turns',
    ),
    'chat.routing_case_exact': ratio(
      rows.filter((row) => row.turns.every((turn) => turn.agent_ok)).length,
      rows.length,
      'no chat cases',
    ),
    'chat.tool_name_match': ratio(
      sum((t) => t.tools_found),
      sum((t) => t.tools_expected),
      'no turn expects a tool',
    ),
    'chat.tool_args_match': ratio(
      sum((t) => t.tools_args_ok),
      sum((t) => t.tools_found),
      'no expected tool was called',
    ),
    'chat.escalation_precision': escalation.precision,
    'chat.escalation_recall': escalation.recall,
    ...replyMetrics('chat', replies, knowledge),
  };
  return { metrics, rows };
}

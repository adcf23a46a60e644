import { chooseTransfer, TRANSFER_TOOL } from './agent-transfer.js';
import { feedbackText, parseFeedback, withoutFeedback } from './feedback.js';
import { deriveGuidelines, isGuidelineDerivation } from './guidelines.js';
import { groundedSentence, isSearchTool, searchCall } from './help-center.js';
import { bestMatch } from './intents.js';
import {
  askForReference,
  askForService,
  missingReference,
  missingService,
} from './missing-reference.js';
import { redraft } from './redraft.js';
import { composeReply, composeSummary, requestedSignature } from './reply-text.js';
import { requestIndex } from './revision.js';
import { generateValue } from './schema-instance.js';
import type { ValueContext, ValueMode } from './string-hints.js';
import { indexText } from './text-index.js';
import { composeToolAnswer } from './tool-answer.js';
import type { Decision, ModelTask, ToolCall, ToolSpec } from './task.js';

function latestUserIndex(task: ModelTask): number {
  for (let i = task.turns.length - 1; i >= 0; i--) {
    const turn = task.turns[i];
    if (turn?.role === 'user' && turn.text.trim()) return i;
  }
  return -1;
}

/** The text of the request the answer is about (the latest message, or the one a revision request revises). */
function requestText(task: ModelTask, request: number): string {
  const turn = task.turns[request];
  return withoutFeedback(turn?.role === 'user' ? turn.text : '');
}

/** The text of the last reply before the user message at `index`: the draft a revision request revises. */
function previousDraft(task: ModelTask, index: number): string | undefined {
  for (let i = index - 1; i >= 0; i--) {
    const turn = task.turns[i];
    if (turn?.role === 'assistant' && turn.text.trim()) return turn.text;
  }
  return undefined;
}

function valueContext(
  task: ModelTask,
  userIndex: number,
  mode: ValueMode,
  root: Record<string, unknown>,
): ValueContext {
  const request = requestIndex(task, userIndex);
  const userText = requestText(task, request);
  const asEmail = /\b(e-?mail|draft|reply|respond|letter)\b/i.test(`${task.system}\n${userText}`);
  const revision = request !== userIndex;
  const feedback = () => parseFeedback(feedbackText(task, request, userIndex, revision));
  // A revision starts from the draft in the conversation, which may be the reviewer's own edit.
  const draft = revision ? previousDraft(task, userIndex) : undefined;
  const signature = asEmail ? requestedSignature(task.system) : undefined;
  const compose = () => {
    const request = { userText, feedback: feedback(), asEmail, signature };
    if (draft !== undefined) return redraft(draft, request);
    return composeReply(request, asEmail ? groundedSentence(task.system, userText) : undefined);
  };
  let reply: string | undefined;
  return {
    root,
    mode,
    userText,
    text: indexText(userText),
    reply: () => (reply ??= compose()),
    summary: (category) => composeSummary(userText, category),
  };
}

function callTool(task: ModelTask, tool: ToolSpec, userIndex: number): ToolCall {
  const params = tool.parameters ?? {};
  const args = generateValue(params, valueContext(task, userIndex, 'arguments', params));
  return {
    name: tool.name,
    args:
      args && typeof args === 'object' && !Array.isArray(args)
        ? (args as Record<string, unknown>)
        : {},
  };
}

function answer(task: ModelTask, userIndex: number, text: string | undefined): Decision {
  if (task.output.kind === 'json') {
    const schema = task.output.schema ?? {
      type: 'object',
      properties: { response: { type: 'string' } },
    };
    const ctx = valueContext(task, userIndex, 'response', schema);
    if (text !== undefined) ctx.reply = () => text;
    return { kind: 'text', text: JSON.stringify(generateValue(schema, ctx)) };
  }
  return { kind: 'text', text: text ?? valueContext(task, userIndex, 'response', {}).reply() };
}

/**
 * What a cooperative model would do with this request: answer after tool results, transfer to the best-matching
 * agent, call the best-matching tool, or reply. Decisions depend only on the request, so they are deterministic.
 */
export function decide(task: ModelTask): Decision {
  if (isGuidelineDerivation(task)) return deriveGuidelines(task);
  const userIndex = latestUserIndex(task);
  const callable =
    task.toolMode === 'none'
      ? []
      : task.tools.filter(
          (t) => task.allowedTools.length === 0 || task.allowedTools.includes(t.name),
        );
  const request = requestText(task, requestIndex(task, userIndex));
  const text = indexText(request);
  const ownTools = callable.filter((t) => t.name !== TRANSFER_TOOL);

  const results = task.turns.slice(userIndex + 1).filter((t) => t.role === 'tool');
  if (results.length > 0 && task.toolMode !== 'required') {
    return answer(
      task,
      userIndex,
      composeToolAnswer(results.map((r) => ({ name: r.name, result: r.result }))),
    );
  }

  const transferTool = callable.find((t) => t.name === TRANSFER_TOOL);
  const transfer =
    transferTool && chooseTransfer(transferTool, task.system, text, ownTools.length > 0);
  if (transfer) return { kind: 'tool_calls', calls: [transfer] };

  const { index } = bestMatch(
    ownTools.map((t) => `${t.name} ${t.description}`),
    text,
  );
  const forced = task.toolMode === 'required' && callable.length > 0;
  const tool = ownTools[index] ?? (forced ? (ownTools[0] ?? callable[0]) : undefined);
  const missing = tool && !forced ? missingReference(tool, request) : undefined;
  // A help center to search: a question no other tool fits, or one without the id its tool needs.
  const search = forced ? undefined : ownTools.find(isSearchTool);
  if (search && (!tool || (missing && tool !== search)))
    return { kind: 'tool_calls', calls: [searchCall(search, request)] };
  if (missing) return answer(task, userIndex, askForReference(missing));
  const services = tool && !forced ? missingService(tool, request) : undefined;
  if (services) return answer(task, userIndex, askForService(services));
  if (tool) return { kind: 'tool_calls', calls: [callTool(task, tool, userIndex)] };

  return answer(task, userIndex, undefined);
}

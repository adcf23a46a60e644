import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadChatCases, loadEmailCases } from './datasets/load-datasets.js';
import { userText, type ChatCase, type EmailCase } from './datasets/schema.js';
import { providerDescription, withRecordedSettings } from './cassettes/cassette-meta.js';
import { applyGate, loadGateConfig, tally } from './gate.js';
import { addJudgeScores } from './judge.js';
import { mean, percentile, type MetricValue } from './metrics/aggregate.js';
import { scoreChatCases } from './metrics/chat-metrics.js';
import { scoreEmailCases } from './metrics/email-metrics.js';
import { readKnowledgeBase } from './metrics/knowledge-base.js';
import { paths } from './paths.js';
import { pipelineVersion } from './pipeline-version.js';
import type { EvalReport } from './report/report.js';
import { compareWithRecording } from './report/compare-recording.js';
import { recordedReportFile, writeReports } from './report/write-report.js';
import { attributeCalls, emailFingerprint, type CaseCalls } from './runners/attribute-calls.js';
import { mapWithConcurrency } from './runners/pool.js';
import { runChatCase, type ChatOutcome } from './runners/run-chat-case.js';
import { runEmailCase, type EmailOutcome } from './runners/run-email-case.js';
import { startStack } from './services/stack.js';
import type { EvalSettings } from './settings.js';

export interface EvalRun {
  report: EvalReport;
  files: { json: string; markdown: string; chart: string };
}

/** Whether the service's OpenAPI document shows a knowledge feature (`needle`: a path or a field). */
async function exposes(url: string | undefined, needle: string): Promise<boolean> {
  if (!url) return false;
  const res = await fetch(`${url}/openapi.json`);
  return res.ok && (await res.text()).includes(needle);
}

function selected<T>(cases: T[], id: (c: T) => string, settings: EvalSettings): T[] {
  return settings.EVAL_CASES ? cases.filter((c) => settings.EVAL_CASES!.includes(id(c))) : cases;
}

function costMetrics(
  prefix: string,
  latencies: number[],
  calls: Array<CaseCalls | undefined>,
): Record<string, MetricValue> {
  const tokens = calls.flatMap((c) =>
    c && c.calls > 0 ? [c.prompt_tokens + c.completion_tokens] : [],
  );
  const p = (q: number) => percentile(latencies, q);
  return {
    [`${prefix}.latency_p50_ms`]: { value: p(50), n: latencies.length },
    [`${prefix}.latency_p95_ms`]: { value: p(95), n: latencies.length },
    [`${prefix}.tokens_per_case`]: mean(tokens, 'the provider reported no usage'),
    [`${prefix}.model_calls_per_case`]: mean(
      calls.map((c) => c?.calls ?? 0),
      'no cases',
    ),
  };
}

/** Runs the suite once: services up, cases through them, metrics, gate, reports written. */
export async function runEval(given: EvalSettings): Promise<EvalRun> {
  const settings = given.mode === 'replay' ? withRecordedSettings(given) : given;
  const started = Date.now();
  const runId = randomUUID().slice(0, 8);
  const gate = loadGateConfig(settings.EVAL_GATE_CONFIG);
  const wantEmail = settings.EVAL_ONLY !== 'chat';
  const wantChat = settings.EVAL_ONLY !== 'email';
  const emailCases: EmailCase[] = wantEmail
    ? selected(loadEmailCases(paths.emailDataset), (c) => c.id, settings)
    : [];
  const chatCases: ChatCase[] = wantChat
    ? selected(loadChatCases(paths.chatDataset), (c) => c.eval_id, settings)
    : [];
  const kb = readKnowledgeBase(settings.EVAL_KB_DIR);

  const stack = await startStack(settings, {
    email: emailCases.length > 0,
    chat: chatCases.length > 0,
  });
  let emailOutcomes: EmailOutcome[] = [];
  let chatOutcomes: ChatOutcome[] = [];
  let emailKnowledge = false;
  let chatKnowledge = false;
  try {
    emailKnowledge = await exposes(stack.emailReviewUrl, '"grounding"');
    chatKnowledge = await exposes(stack.helpdeskUrl, '/kb/search');
    [emailOutcomes, chatOutcomes] = await Promise.all([
      mapWithConcurrency(emailCases, settings.EVAL_CONCURRENCY, (c) =>
        runEmailCase(stack.emailReviewUrl!, c),
      ),
      mapWithConcurrency(chatCases, settings.EVAL_CONCURRENCY, (c) =>
        runChatCase(stack.helpdeskUrl!, c, runId),
      ),
    ]);
  } finally {
    await stack.stop();
  }

  const fingerprints = new Map<string, string[]>([
    ...emailCases.map((c) => [`email:${c.id}`, emailFingerprint(c)] as [string, string[]]),
    ...chatCases.map(
      (c) => [`chat:${c.eval_id}`, c.conversation.map(userText)] as [string, string[]],
    ),
  ]);
  const { byCase, unattributed } = attributeCalls(stack.calls(), fingerprints);
  const problems: string[] = [];
  for (const [id, calls] of byCase) {
    if (calls.misses.length)
      problems.push(
        `replay: case ${id} made ${calls.misses.length} request(s) the cassette does not have (${calls.misses[0]}): the pipeline changed since the recording; record again (README, Record against a real model)`,
      );
  }
  const unattributedMisses = unattributed.filter((c) => c.miss).length;
  if (unattributedMisses)
    problems.push(
      `replay: ${unattributedMisses} request(s) not in the cassette and not attributable to a case`,
    );
  if (unattributed.length - unattributedMisses > 0)
    problems.push(
      `${unattributed.length - unattributedMisses} provider call(s) carried no case's text (not counted in tokens)`,
    );

  const email = scoreEmailCases(emailCases, emailOutcomes, kb, {
    exposed: emailKnowledge,
    note: 'email-review exposes no grounding (drafts are not given the help center)',
  });
  const chat = scoreChatCases(chatCases, chatOutcomes, kb, {
    exposed: chatKnowledge,
    note: 'helpdesk exposes no help center (/kb/search)',
  });
  const metrics: Record<string, MetricValue> = {};
  if (emailCases.length) {
    Object.assign(
      metrics,
      email.metrics,
      costMetrics(
        'email',
        emailOutcomes.map((o) => o.latency_ms),
        emailCases.map((c) => byCase.get(`email:${c.id}`)),
      ),
    );
  }
  if (chatCases.length) {
    Object.assign(
      metrics,
      chat.metrics,
      costMetrics(
        'chat',
        chatOutcomes.flatMap((o) => o.turns.map((t) => t.latency_ms)),
        chatCases.map((c) => byCase.get(`chat:${c.eval_id}`)),
      ),
    );
  }
  await addJudgeScores(settings, metrics, email.rows, chat.rows);
  metrics['replay.requests_missing'] = {
    value: stack.calls().filter((c) => c.miss).length,
    n: stack.calls().length,
  };

  const ran = (name: string) =>
    (name.startsWith('email.') && emailCases.length > 0) ||
    (name.startsWith('chat.') && chatCases.length > 0) ||
    name.startsWith('replay.');
  const gated = applyGate(metrics, gate, ran);
  const version = pipelineVersion({
    kbDir: settings.EVAL_KB_DIR,
    promptsDir: settings.EVAL_PROMPTS_DIR,
    profileFile: settings.EVAL_SUPPORT_PROFILE_FILE,
    models: { ...stack.models, helpdeskProvider: settings.EVAL_HELPDESK_PROVIDER },
  });
  const datasetVersion = createHash('sha256')
    .update(readFileSync(paths.emailDataset))
    .update(readFileSync(paths.chatDataset))
    .digest('hex')
    .slice(0, 12);
  const report: EvalReport = {
    pipeline_version: version,
    mode: settings.mode,
    cassette: settings.mode === 'replay' || settings.EVAL_RECORD ? settings.EVAL_CASSETTE : null,
    models: { ...stack.models, judge: settings.EVAL_JUDGE_URL ? settings.EVAL_JUDGE_MODEL : null },
    answered_by: providerDescription(settings),
    dataset_version: datasetVersion,
    started_at: new Date(started).toISOString(),
    duration_ms: 0,
    metrics: gated,
    confusion: emailCases.length ? email.confusion : null,
    email_cases: email.rows.map((row) => ({ ...row, calls: byCase.get(`email:${row.id}`) })),
    chat_cases: chat.rows.map((row) => ({ ...row, calls: byCase.get(`chat:${row.id}`) })),
    problems,
    passed: 0,
    failed: 0,
    not_measured: 0,
  };
  if (settings.mode === 'replay') compareWithRecording(report, recordedReportFile(settings));
  const counts = tally(report.metrics);
  report.passed = counts.passed;
  report.failed = counts.failed;
  report.not_measured = counts.notMeasured;
  report.duration_ms = Date.now() - started;

  const files = writeReports(report, settings);
  return { report, files };
}

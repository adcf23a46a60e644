import { z } from 'zod';
import { mean, notMeasured, type MetricValue } from './metrics/aggregate.js';
import type { scoreChatCases } from './metrics/chat-metrics.js';
import { groundingPassages, type scoreEmailCases } from './metrics/email-metrics.js';
import { mapWithConcurrency } from './runners/pool.js';
import type { EvalSettings } from './settings.js';

/** Scores from a judge model for one reply: a rubric grade (1–5, scaled to 0–1) and faithfulness (0–1). */
export interface JudgeScores {
  rubric: number;
  faithfulness: number;
}

const verdictSchema = z.object({
  rubric: z.number().min(1).max(5),
  faithfulness: z.number().min(0).max(1),
});

const RUBRIC = `You grade a customer-support reply. Answer JSON {"rubric": 1-5, "faithfulness": 0-1}.
rubric: 5 = answers the customer's question correctly, politely and completely, promises nothing it cannot keep; 1 = wrong, rude or off-topic.
faithfulness: the share of the reply's factual claims supported by the customer's message and the sources given; 1 when it claims nothing unsupported.`;

/** Asks an OpenAI-compatible judge (EVAL_JUDGE_URL) for one reply's scores; null if it fails. */
export async function judgeReply(
  judge: { url: string; apiKey?: string | undefined; model: string },
  input: { question: string; reply: string; sources: string },
): Promise<JudgeScores | null> {
  const res = await fetch(`${judge.url.replace(/\/+$/, '')}/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${judge.apiKey ?? 'none'}`,
    },
    body: JSON.stringify({
      model: judge.model,
      temperature: 0,
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'verdict',
          strict: true,
          schema: {
            type: 'object',
            additionalProperties: false,
            required: ['rubric', 'faithfulness'],
            properties: {
              rubric: { type: 'integer', minimum: 1, maximum: 5 },
              faithfulness: { type: 'number', minimum: 0, maximum: 1 },
            },
          },
        },
      },
      messages: [
        { role: 'system', content: RUBRIC },
        {
          role: 'user',
          content: `Customer:\n${input.question}\n\nSources:\n${input.sources || '(none)'}\n\nReply:\n${input.reply}`,
        },
      ],
    }),
    signal: AbortSignal.timeout(60_000),
  }).catch(() => null);
  if (!res?.ok) return null;
  const body = (await res.json()) as { choices?: Array<{ message?: { content?: string } }> };
  try {
    const verdict = verdictSchema.parse(JSON.parse(body.choices?.[0]?.message?.content ?? ''));
    return { rubric: (verdict.rubric - 1) / 4, faithfulness: verdict.faithfulness };
  } catch {
    return null;
  }
}

/** Judge scores when EVAL_JUDGE_URL is set; otherwise the metrics say not measured. */
export async function addJudgeScores(
  settings: EvalSettings,
  metrics: Record<string, MetricValue>,
  emailRows: ReturnType<typeof scoreEmailCases>['rows'],
  chatRows: ReturnType<typeof scoreChatCases>['rows'],
): Promise<void> {
  const names = [
    'email.judge_rubric',
    'email.judge_faithfulness',
    'chat.judge_rubric',
    'chat.judge_faithfulness',
  ];
  const present = (name: string) =>
    (name.startsWith('email.') ? emailRows.length : chatRows.length) > 0;
  if (!settings.EVAL_JUDGE_URL) {
    for (const name of names.filter(present))
      metrics[name] = notMeasured('no judge: set EVAL_JUDGE_URL (and EVAL_JUDGE_API_KEY)');
    return;
  }
  const judge = {
    url: settings.EVAL_JUDGE_URL,
    apiKey: settings.EVAL_JUDGE_API_KEY,
    model: settings.EVAL_JUDGE_MODEL,
  };
  const items = [
    ...emailRows.flatMap((row) =>
      row.outcome.draft
        ? [
            {
              kind: 'email',
              question: row.input,
              reply: row.outcome.draft,
              sources: [...(groundingPassages(row.outcome.grounding) ?? new Map<string, string>())]
                .map(([slug, text]) => `[kb:${slug}] ${text}`)
                .join('\n'),
            },
          ]
        : [],
    ),
    ...chatRows.flatMap((row) =>
      row.turns.flatMap((turn) =>
        turn.outcome.reply
          ? [
              {
                kind: 'chat',
                question: turn.message,
                reply: turn.outcome.reply,
                sources: (turn.outcome.sources ?? [])
                  .map((s) => `[kb:${s.slug}] ${s.text}`)
                  .join('\n'),
              },
            ]
          : [],
      ),
    ),
  ];
  const scores = await mapWithConcurrency(items, settings.EVAL_CONCURRENCY, (item) =>
    judgeReply(judge, item),
  );
  for (const kind of ['email', 'chat']) {
    if (!present(`${kind}.`)) continue;
    const got = items.flatMap((item, i) => (item.kind === kind && scores[i] ? [scores[i]!] : []));
    metrics[`${kind}.judge_rubric`] = mean(
      got.map((s) => s.rubric),
      'the judge answered no request',
    );
    metrics[`${kind}.judge_faithfulness`] = mean(
      got.map((s) => s.faithfulness),
      'the judge answered no request',
    );
  }
}

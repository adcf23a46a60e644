import type { ProxiedCall } from '../cassettes/provider-proxy.js';

/** The provider calls one case made: their count, tokens, and the requests a replay did not have. */
export interface CaseCalls {
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  misses: string[];
}

/**
 * Gives each provider call to the case whose text it carries (the email, or a user message of the
 * conversation; the datasets keep these unique). Calls no case claims are returned apart.
 */
export function attributeCalls(
  calls: ProxiedCall[],
  fingerprints: Map<string, string[]>,
): { byCase: Map<string, CaseCalls>; unattributed: ProxiedCall[] } {
  const byCase = new Map<string, CaseCalls>();
  const unattributed: ProxiedCall[] = [];
  for (const id of fingerprints.keys())
    byCase.set(id, { calls: 0, prompt_tokens: 0, completion_tokens: 0, misses: [] });
  for (const call of calls) {
    let owner: string | undefined;
    for (const [id, texts] of fingerprints) {
      if (texts.some((text) => call.text.includes(text))) {
        owner = id;
        break;
      }
    }
    const entry = owner ? byCase.get(owner) : undefined;
    if (!entry) {
      unattributed.push(call);
      continue;
    }
    entry.calls += 1;
    entry.prompt_tokens += call.usage?.prompt ?? 0;
    entry.completion_tokens += call.usage?.completion ?? 0;
    if (call.miss) entry.misses.push(`${call.wire} ${call.path}`);
  }
  return { byCase, unattributed };
}

/** The text of a case that reaches the model: the first 80 characters of the email's body, or its subject for raw MIME. */
export function emailFingerprint(testCase: {
  email?: { inbound: string } | undefined;
  raw_mime?: string | undefined;
}): string[] {
  if (testCase.email) return [testCase.email.inbound.trim().slice(0, 80)];
  const subject = /^Subject:\s*(.+)$/im.exec(testCase.raw_mime ?? '')?.[1]?.trim();
  return subject ? [subject] : [];
}

import { contentWords, hasCue, indexText, sameStem, type TextIndex } from './text-index.js';

/**
 * Topics the emulated model recognises. `labels` are words a candidate (enum value, agent, tool) may carry to
 * claim the topic; `cues` are words in the user's text that signal it.
 */
interface Intent {
  labels: string[];
  cues: string[];
}

const ANGER_CUES = [
  'angry',
  'furious',
  'unacceptable',
  'ridiculous',
  'terrible',
  'awful',
  'worst',
  'outrage',
  'disgust',
  'fed up',
  'human',
  'real person',
  'manager',
  'supervisor',
  'complain',
  'lawyer',
  'speak to',
  'talk to',
  'escalat',
  '!!',
];

const INTENTS: Intent[] = [
  {
    labels: ['bill', 'invoice', 'payment', 'finance', 'refund', 'charge'],
    cues: [
      'invoice',
      'charge',
      'bill',
      'payment',
      'pay',
      'paid',
      'refund',
      'price',
      'pricing',
      'subscription',
      'credit card',
      'receipt',
      'money',
      'cost',
      'fee',
      'overcharg',
      'inv-',
    ],
  },
  {
    labels: [
      'technical',
      'tech',
      'bug',
      'outage',
      'incident',
      'engineer',
      'status',
      'infrastructure',
      'service',
      'error',
    ],
    cues: [
      'down',
      'outage',
      'error',
      '500',
      '502',
      '503',
      'bug',
      'crash',
      'broken',
      'not working',
      "doesn't work",
      'fail',
      'timeout',
      'timing out',
      'slow',
      'latency',
      'api',
      'server',
      'site',
      'website',
      'login',
      'log in',
      'unavailable',
      'incident',
      'technical',
      'unreachable',
      'exception',
      'outage',
    ],
  },
  {
    labels: [
      'escalat',
      'complaint',
      'complain',
      'human',
      'manager',
      'supervisor',
      'angry',
      'person',
      'handoff',
    ],
    cues: ANGER_CUES,
  },
  {
    labels: ['negative', 'unhappy', 'frustrat', 'dissatisf', 'upset'],
    cues: [
      ...ANGER_CUES,
      'problem',
      'issue',
      'wrong',
      'disappoint',
      'frustrat',
      'annoy',
      'broken',
      'not working',
    ],
  },
  {
    labels: [
      'positive',
      'happy',
      'praise',
      'compliment',
      'satisf',
      'thank',
      'feedback',
      'suggestion',
    ],
    cues: [
      'thank',
      'great',
      'love',
      'awesome',
      'excellent',
      'appreciate',
      'wonderful',
      'fantastic',
      'suggest',
      'would be nice',
      'feature request',
    ],
  },
  {
    labels: ['account', 'login', 'password', 'profile', 'access'],
    cues: [
      'password',
      'log in',
      'login',
      'sign in',
      'account',
      'username',
      '2fa',
      'locked out',
      'reset',
      'email address',
    ],
  },
  {
    labels: ['spam', 'junk', 'promotion'],
    cues: [
      'unsubscribe',
      'winner',
      'lottery',
      'crypto',
      'click here',
      'limited offer',
      'seo services',
      'prize',
    ],
  },
  {
    labels: ['high', 'urgent', 'critical', 'p1', 'asap', 'immediate'],
    cues: [
      'urgent',
      'asap',
      'immediately',
      'critical',
      'emergency',
      'outage',
      'down',
      ...ANGER_CUES,
    ],
  },
  {
    labels: ['sales', 'purchase', 'quote', 'demo', 'upgrade'],
    cues: ['buy', 'purchase', 'quote', 'demo', 'upgrade', 'pricing plan', 'enterprise plan'],
  },
];

function claimsIntent(descriptorWords: string[], descriptor: TextIndex, intent: Intent): boolean {
  if (descriptorWords.some((w) => intent.labels.some((l) => w.startsWith(l)))) return true;
  return intent.cues.some((c) => c.length > 3 && hasCue(descriptor, c));
}

/**
 * How well a candidate (an enum value, an agent's name and description, a tool's name and description)
 * fits the user's text: topic cues found in the text count three times, shared words once.
 */
export function relevance(descriptorText: string, text: TextIndex): number {
  const descriptor = indexText(
    descriptorText.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' '),
  );
  const words = contentWords(descriptorText);
  let score = 0;
  for (const intent of INTENTS) {
    if (!claimsIntent(words, descriptor, intent)) continue;
    score += 3 * intent.cues.filter((c) => hasCue(text, c)).length;
  }
  const textWords = new Set(text.words);
  for (const w of new Set(words)) {
    if (textWords.has(w) || text.words.some((t) => sameStem(t, w))) score += 1;
  }
  return score;
}

/** Index of the best-scoring candidate, or -1 when nothing scores above zero. Ties go to the earlier one. */
export function bestMatch(
  descriptors: string[],
  text: TextIndex,
): { index: number; score: number } {
  let index = -1;
  let score = 0;
  descriptors.forEach((d, i) => {
    const s = relevance(d, text);
    if (s > score) {
      score = s;
      index = i;
    }
  });
  return { index, score };
}

/** Which broad topic a text is about, used to phrase replies. */
export type Topic = 'billing' | 'technical' | 'escalation' | 'general';

export function topicOf(text: TextIndex): Topic {
  const topics: Topic[] = ['billing', 'technical', 'escalation'];
  let best: Topic = 'general';
  let bestScore = 0;
  topics.forEach((t, i) => {
    const s = (INTENTS[i]?.cues ?? []).filter((c) => hasCue(text, c)).length;
    if (s > bestScore) {
      best = t;
      bestScore = s;
    }
  });
  return best;
}

/** Whether an enum value means "none of the others" (`other`, `general`…): where a text about no listed topic goes. */
export function isCatchAll(value: string): boolean {
  return /^(other|others|general|misc|miscellaneous|unknown|none|unclassified)$/i.test(
    value.trim(),
  );
}

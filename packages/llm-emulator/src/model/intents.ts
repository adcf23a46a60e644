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

const SPAM_CUES = [
  'unsubscribe',
  'winner',
  'lottery',
  'crypto',
  'click here',
  'limited offer',
  'seo services',
  'prize',
  'cheap',
  'replica',
  'watches',
  'casino',
  'viagra',
  'make money',
  'earn $',
  'earning $',
  'from home',
  '% off',
  'buy now',
  'act now',
  'order today',
  'order now',
  'congratulations',
  'claim your',
  'free gift',
];

/**
 * Unsolicited advertising: two spam cues, or one shouted ("BUY CHEAP WATCHES NOW!!!"). Spam wins over every other
 * topic, so its "!!!" and "buy" do not make it a complaint or a sales lead.
 */
export function looksLikeSpam(text: TextIndex): boolean {
  const cues = SPAM_CUES.filter((c) => hasCue(text, c)).length;
  return cues >= 2 || (cues === 1 && text.shouted);
}

const BILLING: Intent = {
  labels: ['bill', 'invoice', 'payment', 'finance', 'refund', 'charge'],
  cues: [
    'invoice',
    'charge',
    'bill',
    'payment',
    'pay',
    'paid',
    'refund',
    'subscription',
    'credit card',
    'receipt',
    'fee',
    'overcharg',
    'inv-',
  ],
};

const TECHNICAL: Intent = {
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
};

const SALES: Intent = {
  labels: ['sales', 'purchase', 'quote', 'demo', 'upgrade'],
  // Prices and discounts are questions before a purchase; a charge, an invoice or a refund is billing.
  cues: [
    'buy',
    'purchase',
    'quote',
    'demo',
    'upgrade',
    'price',
    'pricing',
    'cost',
    'discount',
    'nonprofit',
    'non-profit',
    'plan',
    'seats',
    'licen',
    'trial',
  ],
};

const INTENTS: Intent[] = [
  BILLING,
  TECHNICAL,
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
    cues: SPAM_CUES,
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
  SALES,
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
  const spam = looksLikeSpam(text);
  for (const intent of INTENTS) {
    if (spam && intent.cues !== SPAM_CUES) continue;
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
export type Topic = 'billing' | 'technical' | 'escalation' | 'sales' | 'spam' | 'general';

const TOPIC_CUES: Array<[Topic, string[]]> = [
  ['billing', BILLING.cues],
  ['technical', TECHNICAL.cues],
  ['escalation', ANGER_CUES],
  ['sales', SALES.cues],
];

export function topicOf(text: TextIndex): Topic {
  if (looksLikeSpam(text)) return 'spam';
  let best: Topic = 'general';
  let bestScore = 0;
  for (const [topic, cues] of TOPIC_CUES) {
    const s = cues.filter((c) => hasCue(text, c)).length;
    if (s > bestScore) {
      best = topic;
      bestScore = s;
    }
  }
  return best;
}

/** Whether an enum value means "none of the others" (`other`, `general`…): where a text about no listed topic goes. */
export function isCatchAll(value: string): boolean {
  return /^(other|others|general|misc|miscellaneous|unknown|none|unclassified)$/i.test(
    value.trim(),
  );
}

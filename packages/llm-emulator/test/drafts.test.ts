import { decide } from '../src/model/decide.js';
import type { ModelTask, Turn } from '../src/model/task.js';

// The shape of email-review's requests (apps/email-review/src/workflow/prompts.ts): the email alone in the first
// user turn; on a redraft, the draft the reviewer saw as the assistant turn, then their instructions.
const SYSTEM =
  'You draft replies to customer emails for a support team.\nReply with the email body only, without a subject line.';
const INBOUND =
  'Hello, I was charged twice for invoice INV-1001 this month. Please refund the duplicate payment. Thanks, Dana';
const EDITED =
  'Hi Dana, sorry about the double charge on INV-1001. We have refunded the duplicate payment; it reaches your card within 5 business days. Best regards, Support';

function reply(turns: Turn[]): string {
  const task: ModelTask = {
    system: SYSTEM,
    turns,
    tools: [],
    toolMode: 'auto',
    allowedTools: [],
    output: { kind: 'text' },
  };
  const decision = decide(task);
  if (decision.kind !== 'text') throw new Error(`expected text, got ${JSON.stringify(decision)}`);
  return decision.text;
}

const firstDraft = (inbound: string) => reply([{ role: 'user', text: inbound }]);

function redraftOf(inbound: string, draft: string, instructions: string): string {
  return reply([
    { role: 'user', text: inbound },
    { role: 'assistant', text: draft, toolCalls: [] },
    {
      role: 'user',
      text: `Please write a new draft. The reviewer's instructions: ${instructions}`,
    },
  ]);
}

/** A draft without its greeting and sign-off (as the fixtures here write them, on one line or several). */
const bodyOf = (draft: string) =>
  draft.replace(/^(?:Hi|Dear) \w+,\s*/, '').replace(/\s*Best(?: regards)?,\s*[\w ]+$/, '');

/** The sentences of a draft's body, greeting and sign-off aside. */
const sentencesOf = (draft: string) =>
  draft
    .split(/\n\s*\n/)
    .slice(1, -1)
    .join(' ')
    .split(/(?<=[.!?]"?)\s+/)
    .filter(Boolean);

describe('redraft from the reviewer instructions', () => {
  test('when the reviewer edited the draft, then the redraft starts from the edited text, not from a new draft', () => {
    const redraft = redraftOf(INBOUND, EDITED, 'Please mention that the refund has been approved.');
    expect(redraft).toMatch(/^Hi Dana,\n\n/);
    expect(redraft).toContain('Sorry about the double charge on INV-1001.');
    expect(redraft).toContain(
      'We have refunded the duplicate payment; it reaches your card within 5 business days.',
    );
    expect(redraft).toContain('Please note that the refund has been approved.');
    expect(redraft).toMatch(/Best regards,\nSupport$/);
    expect(redraft).not.toContain('You wrote');
  });

  test('when the instructions ask for a sentence, then it appears once, also after a second redraft with the same instructions', () => {
    const instructions =
      'Say that the refund takes up to 5 business days and mention that the invoice stays open.';
    const once = redraftOf(INBOUND, firstDraft(INBOUND), instructions);
    const twice = redraftOf(INBOUND, once, instructions);
    for (const draft of [once, twice]) {
      const sentences = sentencesOf(draft);
      expect(sentences).toEqual([...new Set(sentences)]);
      expect(draft.match(/the refund takes up to 5 business days/g)).toHaveLength(1);
      expect(draft.match(/the invoice stays open/g)).toHaveLength(1);
    }
    expect(once).not.toMatch(/Please note[^.]*\. Please note/);
  });

  test('when the instructions say "we are sorry", then the draft apologises instead of quoting the words', () => {
    const redraft = redraftOf(INBOUND, firstDraft(INBOUND), 'Mention that we are sorry.');
    expect(redraft).toContain('We sincerely apologize for the inconvenience.');
    expect(redraft).not.toContain('Regarding we are sorry');
  });

  test.each([
    'Keep it short.',
    'Shorter, please.',
    'Make it brief.',
    'Keep it short and say that the refund takes up to 5 business days.',
  ])(
    'when the instructions are %j, then the redraft is visibly shorter than the draft, edited or not',
    (instructions) => {
      for (const draft of [firstDraft(INBOUND), EDITED]) {
        const redraft = redraftOf(INBOUND, draft, instructions);
        expect(bodyOf(redraft).length).toBeLessThan(bodyOf(draft).length * 0.8);
        expect(redraft.length).toBeLessThan(draft.length);
        expect(redraft).toMatch(/^Hi Dana,/);
      }
    },
  );

  test('when "keep it short" comes with something to say, then the short draft still says it', () => {
    const redraft = redraftOf(
      INBOUND,
      EDITED,
      'Keep it short and say that the refund takes up to 5 business days.',
    );
    expect(redraft).toContain('the refund takes up to 5 business days');
    expect(redraft).toContain('Sorry about the double charge on INV-1001.');
  });
});

describe('greeting', () => {
  test.each([
    ['Hello, my order #4471 arrived damaged. Can you send a replacement?\n\nBest,\nMaria', 'Maria'],
    ['I was charged twice for invoice INV-1001. Thanks, Dana', 'Dana'],
    ['Hi,\n\nThe export button does nothing.\n\nKind regards,\nMaria Lopez', 'Maria'],
    ['The export button does nothing.\n-- Tom', 'Tom'],
    ['From: Jane Doe <jane@example.com>\n\nMy invoice is wrong.\n\nThanks,\nJ.', 'Jane'],
  ])('when the email is %j, then the draft greets %s', (inbound, name) => {
    expect(firstDraft(inbound)).toMatch(new RegExp(`^Hi ${name},\n`));
  });

  test.each([
    'Hello, my order arrived damaged. Can you send a replacement?',
    'The app crashes on start. Thanks for your help!',
    'My invoice is wrong. thanks, bye',
  ])('when the email %j is not signed with a name, then the greeting is "Hi there,"', (inbound) => {
    expect(firstDraft(inbound)).toMatch(/^Hi there,\n/);
  });

  test('when a model draft greeted nobody and the email is signed, then the redraft greets the signer', () => {
    const inbound = 'My order #4471 arrived damaged.\n\nBest,\nMaria';
    const generic = firstDraft(inbound).replace(/^Hi Maria,/, 'Hi there,');
    expect(redraftOf(inbound, generic, 'Make it more formal.')).toMatch(/^Dear Maria,\n/);
  });
});

describe('summary', () => {
  test('when the email is an escalation, then the summary says "an escalation matter"', () => {
    const task: ModelTask = {
      system: 'Summarise the email.',
      turns: [{ role: 'user', text: 'This is unacceptable, I want to speak to a manager!' }],
      tools: [],
      toolMode: 'auto',
      allowedTools: [],
      output: {
        kind: 'json',
        schema: { type: 'object', properties: { summary: { type: 'string' } } },
      },
    };
    const decision = decide(task);
    expect(decision.kind === 'text' && JSON.parse(decision.text)).toEqual({
      summary: expect.stringMatching(/^The customer writes about an escalation matter: /),
    });
  });
});

import { task, textOf } from './support/first-replies.js';

// email-review's guideline derivation (issue 40): a draft and what the reviewer made of it.
const SYSTEM = 'Derive reviewer guidelines for drafting customer-support email replies.';
const SCHEMA = { type: 'object', properties: { guidelines: { type: 'array' } } };

const derive = (user: string) =>
  JSON.parse(
    textOf(
      task([{ role: 'user', text: user }], {
        system: SYSTEM,
        output: { kind: 'json', schema: SCHEMA },
      }),
    ),
  ) as { guidelines: { rule: string; scope: string }[] };

const pair = (draft: string, approved: string) =>
  `Model draft:\n<<<\n${draft}\n>>>\nReviewer's approved text:\n<<<\n${approved}\n>>>`;

const DRAFT =
  'Hi Ann,\n\nThank you for your email. We are looking into it.\n\nBest regards,\nSupport';

describe('a guideline derivation request', () => {
  test('when the reviewer changed the greeting and added a reference line, then the two rules come back for the domain', () => {
    const approved =
      'Dear Ann,\n\nThank you for your email. We are looking into it.\nOrder reference: A-1001\n\nBest regards,\nSupport';

    expect(derive(pair(DRAFT, approved)).guidelines).toEqual([
      { rule: "Greet the customer as 'Dear <name>'", scope: 'domain' },
      { rule: 'Include the order reference', scope: 'domain' },
    ]);
  });

  test('when the approved text is the draft, then no rule comes back', () => {
    expect(derive(pair(DRAFT, DRAFT)).guidelines).toEqual([]);
  });

  test('when a line the service marked as customer text is new, then it teaches nothing', () => {
    const approved = `${DRAFT}\nRule: [customer text]`;

    expect(derive(pair(DRAFT, approved)).guidelines).toEqual([]);
  });

  test('when the reviewer gave instructions, then their first sentence is a rule for the sender', () => {
    const user = `Model draft:\n<<<\n${DRAFT}\n>>>\nReviewer's instructions:\n<<<\nAlways mention the tracking link. Thanks!\n>>>`;

    expect(derive(user).guidelines).toEqual([
      { rule: 'Always mention the tracking link', scope: 'sender' },
    ]);
  });
});

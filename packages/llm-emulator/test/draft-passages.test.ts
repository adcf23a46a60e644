import { DRAFT_SYSTEM, task, textOf } from './support/first-replies.js';

// email-review's draft step puts the passages it retrieved into the system prompt (issue 39).
const PASSAGES = `${DRAFT_SYSTEM}

Help center passages for this email (cite each one you use as [kb:slug]):
[kb:refund-policy] Refund policy › Refund window
You can ask for a refund within **30 days** of delivery. Refunds go back to the original payment method. Shipping costs are not refunded.

[kb:shipping-times] Shipping times › Europe
Orders ship within 2 business days. Delivery in the EU takes 3–5 days.
End of the help center passages.`;

const NO_MATCH = `${DRAFT_SYSTEM}

No help center article answers this email: do not invent an answer; say the team will check and get back to the customer.`;

const draft = (system: string, email: string) =>
  textOf(task([{ role: 'user', text: email }], { system }));

describe('a draft prompt with help center passages', () => {
  test('when the email shares words with a passage, then the draft answers from it and cites its slug', () => {
    const text = draft(PASSAGES, 'Subject: Refund\n\nWhat is your refund window?');
    expect(text).toContain(
      'You can ask for a refund within 30 days of delivery. Refunds go back to the original payment method. [kb:refund-policy]',
    );
    expect(text).not.toContain('[kb:shipping-times]');
  });

  test('when another passage fits better, then that one is cited', () => {
    const text = draft(PASSAGES, 'How long does delivery take to Europe?');
    expect(text).toContain('[kb:shipping-times]');
    expect(text).not.toContain('[kb:refund-policy]');
  });

  test('when no passage shares a word, then nothing is cited and the draft promises to check', () => {
    const text = draft(PASSAGES, 'Can I bring my dog to the office?');
    expect(text).not.toContain('[kb:');
    expect(text).toContain('I am checking this with our team');
  });

  test('when the prompt has no passages, then the draft is the usual one', () => {
    expect(draft(DRAFT_SYSTEM, 'Can I bring my dog to the office?')).not.toContain(
      'I am checking this with our team',
    );
  });

  test('when the prompt says no article answers, then the draft promises to check', () => {
    const text = draft(NO_MATCH, 'Can I bring my dog to the office?');
    expect(text).toContain('I am checking this with our team and will get back to you');
    expect(text).not.toContain('[kb:');
  });
});

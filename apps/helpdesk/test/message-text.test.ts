import { INVOICE_QUESTION, startHelpdesk, type HelpdeskUnderTest } from './support/harness.js';

// PostgreSQL stores neither NUL nor unpaired surrogates, so they are refused in every mode alike.
describe('message text a database cannot store', () => {
  let helpdesk: HelpdeskUnderTest;

  beforeAll(async () => {
    helpdesk = await startHelpdesk();
  });
  afterAll(() => helpdesk.close());

  it.each([
    ['a NUL character', `${INVOICE_QUESTION}\u0000`, /NUL/],
    ['a lone high surrogate', `${INVOICE_QUESTION} \ud83d`, /surrogate/],
    ['a lone low surrogate', `\ude00 ${INVOICE_QUESTION}`, /surrogate/],
  ])(
    'when a message holds %s, then POST /chat answers 400 without calling the model',
    async (_case, message, detail) => {
      helpdesk.emulator.requests.clear();

      const res = await helpdesk.send('text-1', message).expect(400);

      expect(res.body).toMatchObject({ code: 'validation_failed' });
      expect(res.body.detail).toMatch(detail);
      expect(helpdesk.modelCalls()).toHaveLength(0);
    },
  );

  it('when a message holds a whole surrogate pair (an emoji), then it is answered', async () => {
    await helpdesk.send('text-2', `${INVOICE_QUESTION} 🙂`).expect(200);
  });
});

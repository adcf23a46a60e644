import {
  HUMAN_REQUEST,
  INVOICE_QUESTION,
  OUTAGE_QUESTION,
  startHelpdesk,
  textsIn,
  type HelpdeskUnderTest,
} from './support/harness.js';

describe('prompt size on long sessions', () => {
  let helpdesk: HelpdeskUnderTest;

  beforeAll(async () => {
    helpdesk = await startHelpdesk();
  });
  afterAll(() => helpdesk.close());

  it('when a session runs 30 turns, then the prompt of turn 30 is at most twice that of turn 1', async () => {
    const messages = [INVOICE_QUESTION, OUTAGE_QUESTION, HUMAN_REQUEST];
    const promptChars: number[] = [];
    for (let turn = 1; turn <= 30; turn += 1) {
      helpdesk.emulator.requests.clear();
      await helpdesk.send('long-session', `${messages[(turn - 1) % 3]} (turn ${turn})`).expect(200);
      // The emulator, like Gemini, bills the whole request; the three calls of a turn together.
      promptChars.push(
        helpdesk.modelCalls().reduce((sum, call) => sum + JSON.stringify(call.body).length, 0),
      );
    }

    expect(promptChars[29]!).toBeLessThanOrEqual(2 * promptChars[0]!);
    // Flat, not merely slow-growing: the last turns cost what turns 10-12 did (give or take ids).
    expect(Math.max(...promptChars.slice(27))).toBeLessThanOrEqual(
      1.02 * Math.max(...promptChars.slice(9, 12)),
    );
  });

  it('when a session runs long, then the model still sees the most recent turns', async () => {
    helpdesk.emulator.requests.clear();

    await helpdesk.send('long-session', 'Is the dashboard down?').expect(200);

    // The user's own messages in the coordinator's prompt: the last three turns, then this one.
    const asked = textsIn(helpdesk.modelCalls()[0]!)
      .split('\n')
      .map((line) => /^[A-Z].*\(turn (\d+)\)$/.exec(line)?.[1])
      .filter(Boolean);
    expect(asked).toEqual(['28', '29', '30']);
    const transcript = await helpdesk.http.get('/sessions/long-session').expect(200);
    expect(transcript.body.turns).toHaveLength(62);
  });
});

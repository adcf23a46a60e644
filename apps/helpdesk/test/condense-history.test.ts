import { createEvent, type Event } from '@google/adk';
import { condenseHistory } from '../src/sessions/condense-history.js';

const user = (text: string) =>
  createEvent({ author: 'user', content: { role: 'user', parts: [{ text }] } });
const reply = (author: string, text: string) =>
  createEvent({ author, content: { role: 'model', parts: [{ text }] } });
const call = (author: string, name: string) =>
  createEvent({
    author,
    content: { role: 'model', parts: [{ functionCall: { name, args: {} } }] },
  });
const result = (author: string, name: string) =>
  createEvent({
    author,
    content: { role: 'user', parts: [{ functionResponse: { name, response: { ok: true } } }] },
  });
const failure = (author: string) =>
  createEvent({ author, errorCode: '503', errorMessage: 'unavailable' });

function turn(n: number): Event[] {
  return [
    user(`question ${n}`),
    call('coordinator', 'transfer_to_agent'),
    result('coordinator', 'transfer_to_agent'),
    call('billing', 'lookup_invoice'),
    result('billing', 'lookup_invoice'),
    reply('billing', `answer ${n}`),
  ];
}

const texts = (events: Event[]) => events.map((e) => e.content?.parts?.[0]?.text);

describe('condenseHistory', () => {
  it('when turns are over, then only each question and its reply are kept', () => {
    const condensed = condenseHistory([...turn(1), ...turn(2)], { turns: 5, chars: 10_000 });

    expect(texts(condensed)).toEqual(['question 1', 'answer 1', 'question 2', 'answer 2']);
  });

  it('when there are more turns than the limit, then only the most recent are kept', () => {
    const events = [1, 2, 3, 4, 5].flatMap(turn);

    expect(texts(condenseHistory(events, { turns: 2, chars: 10_000 }))).toEqual([
      'question 4',
      'answer 4',
      'question 5',
      'answer 5',
    ]);
  });

  it('when the recent turns hold more text than the budget, then older ones go even within the turn limit', () => {
    const long = [user('a'.repeat(500)), reply('billing', 'b'.repeat(500))];
    const events = [...long, ...turn(2), ...turn(3)];

    expect(texts(condenseHistory(events, { turns: 5, chars: 600 }))).toEqual([
      'question 2',
      'answer 2',
      'question 3',
      'answer 3',
    ]);
  });

  it('when a turn failed without a reply, then it is dropped whole', () => {
    const events = [
      ...turn(1),
      user('failed question'),
      call('coordinator', 'transfer_to_agent'),
      failure('billing'),
      ...turn(2),
    ];

    expect(texts(condenseHistory(events, { turns: 5, chars: 10_000 }))).toEqual([
      'question 1',
      'answer 1',
      'question 2',
      'answer 2',
    ]);
  });

  it('when the history is condensed again, then nothing changes', () => {
    const once = condenseHistory([1, 2, 3, 4].flatMap(turn), { turns: 3, chars: 10_000 });

    expect(condenseHistory(once, { turns: 3, chars: 10_000 })).toEqual(once);
  });
});

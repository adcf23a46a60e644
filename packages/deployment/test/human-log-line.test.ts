import { humanLogLine } from '../src/human-log-line.js';

describe('humanLogLine', () => {
  test('when a service logs an access line, then it reads as time, level, message and the request in brief', () => {
    const json = JSON.stringify({
      level: 30,
      time: Date.UTC(2026, 0, 2, 12, 0, 1, 234),
      pid: 7,
      hostname: 'vm',
      name: 'email-review',
      req: { method: 'POST', url: '/threads' },
      res: { status: 201 },
      responseTime: 159,
      request_id: 'r-1',
      msg: 'request completed',
    });
    expect(humanLogLine(json)).toBe(
      '12:00:01.234 INFO  request completed POST /threads 201 159ms request_id=r-1',
    );
  });

  test('when a line carries an error, then its kind and message are shown and its stack is not', () => {
    const json = JSON.stringify({
      level: 50,
      time: 0,
      msg: 'delivery failed',
      thread_id: 't-1',
      err: {
        type: 'Error',
        message: 'connect ECONNREFUSED',
        stack: 'Error: x\n    at a (b.js:1:1)',
      },
    });
    const line = humanLogLine(json);
    expect(line).toBe(
      '00:00:00.000 ERROR delivery failed thread_id=t-1 err="Error: connect ECONNREFUSED"',
    );
    expect(line).not.toContain('\n');
  });

  test('when a line is not pino JSON, then it is shown as it came', () => {
    expect(humanLogLine('plain words')).toBe('plain words');
    expect(humanLogLine('[1,2]')).toBe('[1,2]');
    expect(humanLogLine('{"msg":"no level"}')).toBe('{"msg":"no level"}');
  });

  test('when a field is a sentence or an object, then it is quoted as JSON on the one line', () => {
    const json = JSON.stringify({
      level: 40,
      time: 0,
      msg: 'slow',
      note: 'two words',
      n: { a: 1 },
    });
    expect(humanLogLine(json)).toBe('00:00:00.000 WARN  slow note="two words" n={"a":1}');
  });

  test('when the message already says a field, then the field is not repeated', () => {
    const json = JSON.stringify({
      level: 30,
      time: 0,
      msg: 'ready on http://x checkpointer=postgres',
      checkpointer: 'postgres',
      model: 'm',
    });
    expect(humanLogLine(json)).toBe(
      '00:00:00.000 INFO  ready on http://x checkpointer=postgres model=m',
    );
  });
});

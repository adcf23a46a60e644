import { RequestLog } from '../src/control/request-log.js';
import { FaultQueue } from '../src/control/faults.js';

function entry(i: number) {
  return {
    provider: 'openai' as const,
    method: 'POST',
    path: '/v1/chat/completions',
    body: { i },
    status: 200,
    at: '',
  };
}

describe('request log', () => {
  it('when more entries than the limit are recorded, then only the most recent are kept', () => {
    const log = new RequestLog(3);
    for (let i = 0; i < 5; i++) log.record(entry(i), 10);
    expect(log.list().map((e) => (e.body as { i: number }).i)).toEqual([2, 3, 4]);
  });

  it('when bodies exceed the byte budget, then the oldest are dropped', () => {
    const log = new RequestLog(100, 25);
    for (let i = 0; i < 4; i++) log.record(entry(i), 10);
    expect(log.list()).toHaveLength(2);
  });
});

describe('fault queue', () => {
  it('when a fault has a count, then it hits that many matching requests and then stops', () => {
    const faults = new FaultQueue();
    faults.add({ provider: 'gemini', count: 2, kind: 'hang' });
    const target = {
      provider: 'gemini' as const,
      path: '/v1beta/models/m:generateContent',
      model: 'm',
    };
    expect(faults.take({ ...target, provider: 'openai' })).toBeUndefined();
    expect(faults.take(target)?.kind).toBe('hang');
    expect(faults.take(target)?.kind).toBe('hang');
    expect(faults.take(target)).toBeUndefined();
  });

  it('when a fault names a model or path, then other requests are not affected', () => {
    const faults = new FaultQueue();
    faults.add({ provider: 'any', count: 1, model: 'a', path: ':stream', kind: 'malformed' });
    expect(
      faults.take({ provider: 'gemini', path: '/v1beta/models/a:generateContent', model: 'a' }),
    ).toBeUndefined();
    expect(
      faults.take({
        provider: 'gemini',
        path: '/v1beta/models/b:streamGenerateContent',
        model: 'b',
      }),
    ).toBeUndefined();
    expect(
      faults.take({
        provider: 'gemini',
        path: '/v1beta/models/a:streamGenerateContent',
        model: 'a',
      })?.kind,
    ).toBe('malformed');
  });
});

import { Registry } from 'prom-client';
import { helpCenterMetrics } from '../src/help-center/help-center-metrics.js';

const names = {
  searchSeconds: { name: 'svc_kb_search_seconds', help: 'Search time.' },
  answers: { name: 'svc_answers_total', help: 'Answers by grounding.', label: 'grounding' },
  citationsRemoved: { name: 'svc_citations_removed_total', help: 'Citations removed.' },
};

describe('helpCenterMetrics', () => {
  it('when searches are timed and answers observed, then the registry shows them under the given names', async () => {
    const registry = new Registry();
    const metrics = helpCenterMetrics(registry, names);

    await expect(metrics.timed(async () => 'hits')).resolves.toBe('hits');
    await expect(metrics.timed(() => Promise.reject(new Error('down')))).rejects.toThrow('down');
    metrics.observeAnswer('grounded', 2);
    metrics.observeAnswer('none', 0);

    const text = await registry.metrics();
    expect(text).toMatch(/^svc_kb_search_seconds_count 2$/m);
    expect(text).toMatch(/^svc_answers_total\{grounding="grounded"\} 1$/m);
    expect(text).toMatch(/^svc_answers_total\{grounding="none"\} 1$/m);
    expect(text).toMatch(/^svc_citations_removed_total 2$/m);
  });

  it('when no registry is given, then the metrics still count, registered nowhere', async () => {
    const metrics = helpCenterMetrics(undefined, names);

    await expect(metrics.timed(async () => 1)).resolves.toBe(1);
    expect(() => metrics.observeAnswer('grounded', 1)).not.toThrow();
  });
});

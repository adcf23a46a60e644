import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { dropSchema, freshSchema, testModes } from './support/database.js';
import { startInstance, TEST_MODEL, type Instance } from './support/harness.js';

// Issue 40: how good the drafts are — stamped, measured on each decision, reported and scraped.

const modes = await testModes();

/** A gauge's value for the sample whose labels include all of `labels`. */
function gaugeValue(metrics: string, name: string, labels: Record<string, string>): number[] {
  return metrics
    .split('\n')
    .filter(
      (line) =>
        line.startsWith(`${name}{`) &&
        Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`)),
    )
    .map((line) => Number(line.split(' ').pop()));
}

describe.each(modes)('draft quality (%s)', (mode) => {
  const schema = freshSchema('quality');
  let emulator: Emulator;
  let instance: Instance;
  const api = () => request(instance.app);

  const create = async (n: number) => {
    const res = await api()
      .post('/threads')
      .send({ from: `c${n}@quality.test`, inbound: `Hello, where is my order Q-${n}?` });
    expect(res.status).toBe(201);
    return res.body as {
      thread_id: string;
      draft: string;
      drafted_with: { model: string; pipeline_version: string };
    };
  };

  beforeAll(async () => {
    emulator = await startEmulator();
    instance = await startInstance({ mode, emulator, schema, metrics: { public: true } });
  });
  afterAll(async () => {
    await instance?.close();
    await emulator?.close();
    if (mode === 'postgres') await dropSchema(schema);
  });

  test('when 10 drafts are approved (4 edited) and 2 rejected with reasons, then /quality and /metrics show 0.6 unedited, ten edit distances and both reasons with their threads', async () => {
    const since = new Date().toISOString();
    const approved: string[] = [];
    for (let n = 0; n < 10; n += 1) {
      const thread = await create(n);
      expect(thread.drafted_with.model).toBe(TEST_MODEL);
      expect(thread.drafted_with.pipeline_version).toMatch(/^p-[0-9a-f]{12}$/);
      if (n < 4) {
        const edit = await api()
          .post(`/threads/${thread.thread_id}/edit`)
          .send({ draft: `${thread.draft}\nOrder reference: Q-${n}` });
        expect(edit.status).toBe(200);
      }
      expect((await api().post(`/threads/${thread.thread_id}/approve`)).status).toBe(200);
      approved.push(thread.thread_id);
    }
    const wrong = await create(10);
    const tone = await create(11);
    const rejectedWrong = await api()
      .post(`/threads/${wrong.thread_id}/reject`)
      .send({ reason: 'wrong_facts', note: 'The order shipped yesterday.' });
    expect(rejectedWrong.status).toBe(200);
    expect(
      (await api().post(`/threads/${tone.thread_id}/reject`).send({ reason: 'wrong_tone' })).status,
    ).toBe(200);

    const quality = await api().get('/quality').query({ since });

    expect(quality.status).toBe(200);
    const overall = quality.body.overall;
    expect(overall).toMatchObject({ approved: 10, approved_unedited: 6, rejected: 2 });
    expect(overall.unedited_share).toBeCloseTo(0.6);
    expect(overall.edit_distance.count).toBe(10);
    expect(overall.edit_distance.mean).toBeGreaterThan(0);
    expect(overall.reject_reasons).toEqual([
      {
        reason: 'wrong_facts',
        count: 1,
        thread_ids: [wrong.thread_id],
        notes: ['The order shipped yesterday.'],
      },
      { reason: 'wrong_tone', count: 1, thread_ids: [tone.thread_id], notes: [] },
    ]);
    expect(quality.body.by_model).toEqual([expect.objectContaining({ model: TEST_MODEL })]);
    expect(quality.body.by_pipeline_version).toHaveLength(1);

    const metrics = (await api().get('/metrics')).text;
    expect(gaugeValue(metrics, 'email_review_draft_unedited_share', { model: TEST_MODEL })).toEqual(
      [0.6],
    );
    expect(gaugeValue(metrics, 'email_review_draft_edit_distances', { model: TEST_MODEL })).toEqual(
      [10],
    );
    expect(gaugeValue(metrics, 'email_review_draft_rejections', { reason: 'wrong_facts' })).toEqual(
      [1],
    );
    expect(gaugeValue(metrics, 'email_review_draft_rejections', { reason: 'wrong_tone' })).toEqual([
      1,
    ]);
  });

  test('when an older client rejects with free text, then it counts as other with the text as its note, and the history keeps it', async () => {
    const since = new Date().toISOString();
    const thread = await create(20);

    const res = await api()
      .post(`/threads/${thread.thread_id}/reject`)
      .send({ reason: 'Customer already called us' });

    expect(res.status).toBe(200);
    const quality = await api().get('/quality').query({ since });
    expect(quality.body.overall.reject_reasons).toEqual([
      {
        reason: 'other',
        count: 1,
        thread_ids: [thread.thread_id],
        notes: ['Customer already called us'],
      },
    ]);
    const history = await api().get(`/threads/${thread.thread_id}/history`);
    expect(JSON.stringify(history.body)).toContain('Customer already called us');
  });

  test('when /quality is asked for a category nobody decided or with a bad since, then it answers nothing decided, or 400', async () => {
    const none = await api().get('/quality').query({ category: 'no-such-category' });
    expect(none.status).toBe(200);
    expect(none.body.overall).toMatchObject({ decided: 0, unedited_share: null });

    const bad = await api().get('/quality').query({ since: 'yesterday' });
    expect(bad.status).toBe(400);
  });
});

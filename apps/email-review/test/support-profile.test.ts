import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type Emulator } from '@repo/llm-emulator';
import { loadSupportConfig } from '@repo/support-profile';
import request from 'supertest';
import { labelsOf } from '../src/workflow/classification.js';
import { dropSchema, freshSchema, testModes } from './support/database.js';
import { startInstance, type Instance } from './support/harness.js';
import { spawnServer, startServer } from './support/server-process.js';

// Issue 46: the company profile and voice reach email-review's prompts; its categories are what the
// classifier is offered, what the API accepts and documents.

const modes = await testModes();
const dir = mkdtempSync(join(tmpdir(), 'er-profile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PROFILE = `
company_name: Northwind Lamps
signature: |-
  Warm regards,
  Ingrid at Northwind
style_rules:
  - Never use exclamation marks.
categories:
  - { name: orders, description: "Orders, deliveries and returns." }
  - { name: repairs }
  - { name: invoices }
  - { name: partnerships }
  - { name: junk }
`;
const FIVE = ['orders', 'repairs', 'invoices', 'partnerships', 'junk'];

/** The profile's prompts and labels, as env.ts reads them (SUPPORT_PROFILE_FILE, PROMPTS_DIR). */
function supportFrom(env: Record<string, string>) {
  const { profile, prompts } = loadSupportConfig(env);
  return { prompts, labels: labelsOf(profile) };
}

interface ChatBody {
  messages: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { schema: unknown } };
}

const chatBodies = (emulator: Emulator) =>
  emulator.requests
    .list()
    .filter((r) => r.provider === 'openai')
    .map((r) => r.body as ChatBody);
const classifyBody = (emulator: Emulator) =>
  chatBodies(emulator).find((b) => b.response_format?.type === 'json_schema')!;
const draftBody = (emulator: Emulator) =>
  chatBodies(emulator).find((b) => b.response_format === undefined)!;

describe.each(modes)('a support profile (%s)', (mode) => {
  const schema = freshSchema('profile');
  const profileFile = join(dir, `profile-${mode}.yaml`);
  let emulator: Emulator;
  let instance: Instance;

  beforeAll(async () => {
    writeFileSync(profileFile, PROFILE);
    emulator = await startEmulator();
    instance = await startInstance({
      mode,
      emulator,
      schema,
      support: supportFrom({ SUPPORT_PROFILE_FILE: profileFile }),
    });
  });
  afterAll(async () => {
    await instance?.close();
    await emulator?.close();
    if (mode === 'postgres') await dropSchema(schema);
  });
  beforeEach(() => emulator.requests.clear());

  test('when an email is drafted, then the company name, the signature and the style rule reach the classify and draft prompts, and the draft is signed so', async () => {
    const res = await request(instance.app)
      .post('/threads')
      .send({ inbound: 'My lamp arrived broken, can I get a new one?' });

    expect(res.status).toBe(201);
    const classify = classifyBody(emulator).messages[0]!.content;
    const draft = draftBody(emulator).messages[0]!.content;
    expect(classify).toContain('the Northwind Lamps support team');
    expect(draft).toContain('the Northwind Lamps support team');
    expect(draft).toContain('- Never use exclamation marks.');
    expect(draft).toContain('Warm regards,\nIngrid at Northwind');
    expect(res.body.draft.endsWith('Warm regards,\nIngrid at Northwind')).toBe(true);
  });

  test('when an email is classified, then the model is offered exactly the five configured categories, and the thread holds one of them', async () => {
    const res = await request(instance.app)
      .post('/threads')
      .send({ inbound: 'Where is my order? It should have been delivered last week.' });

    const body = classifyBody(emulator);
    const offered = body.response_format!.json_schema!.schema as {
      properties: { category: { enum: string[] } };
    };
    expect(offered.properties.category.enum).toEqual(FIVE);
    expect(body.messages[0]!.content).toContain(`(${FIVE.join(', ')})`);
    expect(body.messages[0]!.content).toContain('- orders: Orders, deliveries and returns.');
    expect(FIVE).toContain(res.body.classification.category);
  });

  test('when the list is filtered by a configured category, then only its threads come back; a category not configured is a 400', async () => {
    const created = await request(instance.app)
      .post('/threads')
      .send({ inbound: 'Where is my order? It should have been delivered last week.' });
    const category = created.body.classification.category as string;

    const listed = await request(instance.app).get('/threads').query({ category, limit: 100 });
    const refused = await request(instance.app).get('/threads').query({ category: 'billing' });

    expect(listed.status).toBe(200);
    expect(listed.body.items.map((t: { thread_id: string }) => t.thread_id)).toContain(
      created.body.thread_id,
    );
    expect(
      listed.body.items.every(
        (t: { classification: { category: string } }) => t.classification.category === category,
      ),
    ).toBe(true);
    expect(refused.status).toBe(400);
  });

  test('when the API is documented, then /openapi.json and GET /labels list the configured categories', async () => {
    const doc = (await request(instance.app).get('/openapi.json')).body;
    const labels = (await request(instance.app).get('/labels')).body;

    const thread =
      doc.paths['/threads/{thread_id}'].get.responses['200'].content['application/json'].schema;
    const resolved = thread.$ref ? doc.components.schemas[thread.$ref.split('/').pop()] : thread;
    expect(resolved.properties.classification.anyOf[0].properties.category.enum).toEqual(FIVE);
    const filter = doc.paths['/threads'].get.parameters.find(
      (p: { name: string }) => p.name === 'category',
    );
    expect(filter.schema.enum).toEqual(FIVE);
    expect(labels.categories.map((c: { name: string }) => c.name)).toEqual(FIVE);
    expect(labels.urgencies.map((u: { name: string }) => u.name)).toEqual([
      'low',
      'normal',
      'high',
    ]);
  });
});

describe('prompt files', () => {
  let emulator: Emulator;
  let instance: Instance;
  const prompts = join(dir, 'prompts');

  beforeAll(async () => {
    emulator = await startEmulator();
    rmSync(prompts, { recursive: true, force: true });
    mkdirSync(prompts);
    writeFileSync(
      join(prompts, 'draft.md'),
      'You write email replies for {{team}}, in the voice of a lighthouse keeper.\n',
    );
    instance = await startInstance({
      mode: 'memory',
      emulator,
      support: supportFrom({ PROMPTS_DIR: prompts, PROFILE_COMPANY_NAME: 'Beacon' }),
    });
  });
  afterAll(async () => {
    await instance?.close();
    await emulator?.close();
  });

  test('when PROMPTS_DIR has draft.md, then it replaces the default draft prompt (rendered with the profile)', async () => {
    await request(instance.app).post('/threads').send({ inbound: 'Is the shop open on Sunday?' });

    const system = draftBody(emulator).messages[0]!.content;
    expect(
      system.startsWith(
        'You write email replies for the Beacon support team, in the voice of a lighthouse keeper.',
      ),
    ).toBe(true);
    expect(system).not.toContain('You draft replies to customer emails');
    expect(classifyBody(emulator).messages[0]!.content).toContain('You triage inbound');
  });
});

describe('start-up with a profile', () => {
  test('when the service starts with a profile and KB_DIR, then its ready line names the company, the categories and the folder', async () => {
    const file = join(dir, 'ready.yaml');
    writeFileSync(file, PROFILE);
    const { process: server } = await startServer({
      LLM_A_API_KEY: 'test-key',
      LLM_A_BASE_URL: 'http://127.0.0.1:9/v1',
      SUPPORT_PROFILE_FILE: file,
      KB_DIR: dir,
    });
    server.child.kill('SIGTERM');
    await server.exited;

    const ready = server
      .stdout()
      .split('\n')
      .find((line) => line.includes('ready on'))!;
    expect(JSON.parse(ready)).toMatchObject({
      company_name: 'Northwind Lamps',
      categories: FIVE,
      kb_dir: dir,
    });
  });

  test('when a category name is not an identifier, then the service exits 1 with one line naming the field', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'categories:\n  - { name: orders }\n  - { name: Returns }\n');

    const server = spawnServer({
      LLM_A_API_KEY: 'test-key',
      LLM_A_BASE_URL: 'http://127.0.0.1:9/v1',
      SUPPORT_PROFILE_FILE: file,
    });
    const { code } = await server.exited;

    expect(code).toBe(1);
    const lines = server.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('categories[1].name');
    expect(server.stdout()).not.toMatch(/starting|ready/);
  });
});

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authSettingsFromEnv } from '@repo/http-kit';
import { startEmulator, type Emulator } from '@repo/llm-emulator';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import request from 'supertest';
import { loadServiceEnv } from '../src/env.js';
import { dropSchema, freshSchema, testModes } from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { startInstance, type Instance } from './support/harness.js';

const modes = await testModes();

const AUDIENCE = 'email-review';
const ISSUER = 'https://id.shop.test/';
const KID = 'test-key-1';

/** A key pair made here, and a JWKS endpoint serving its public half. */
async function startIdentityProvider() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  const server: Server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const sign = (
    claims: JWTPayload,
    options: { audience?: string; issuer?: string; expiresIn?: string | number } = {},
  ) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: KID })
      .setIssuedAt()
      .setAudience(options.audience ?? AUDIENCE)
      .setIssuer(options.issuer ?? ISSUER)
      .setExpirationTime(options.expiresIn ?? '5m')
      .sign(privateKey);
  return {
    jwksUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`,
    sign,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(modes)('actors in the history (%s)', (mode) => {
  const schema = freshSchema('actors');
  let emulator: Emulator;
  let idp: Awaited<ReturnType<typeof startIdentityProvider>>;
  let instance: Instance;
  let single: Instance;

  beforeAll(async () => {
    emulator = await startEmulator();
    idp = await startIdentityProvider();
    // As server.ts reads them: API_TOKENS pairs and the JWT settings, through the service's env.
    const env = loadServiceEnv({
      LLM_A_API_KEY: 'test-key',
      API_TOKENS: 'alice:tok-alice-0123456789 bob:tok-bob-0123456789',
      AUTH_JWKS_URL: idp.jwksUrl,
      AUTH_AUDIENCE: AUDIENCE,
      AUTH_ISSUER: ISSUER,
    });
    instance = await startInstance({ mode, emulator, schema, auth: authSettingsFromEnv(env) });
    single = await startInstance({ mode, emulator, schema, apiToken: 'the-one-token-0123456789' });
  });
  afterAll(async () => {
    await instance?.close();
    await single?.close();
    await idp?.close();
    await emulator?.close();
    if (mode === 'postgres') await dropSchema(schema);
  });

  const as = (bearer: string) => ({ Authorization: `Bearer ${bearer}` });
  const actorsOf = async (app: Instance['app'], id: string, bearer: string) =>
    (await request(app).get(`/threads/${id}/history`).set(as(bearer)).expect(200)).body.events.map(
      (event: { type: string; actor: string }) => `${event.type}:${event.actor}`,
    );

  test('when two named API_TOKENS act on a thread, then each change records its token’s name', async () => {
    const created = await request(instance.app)
      .post('/threads')
      .set(as('tok-alice-0123456789'))
      .send({ inbound: BILLING_EMAIL, from: 'ann@example.com' })
      .expect(201);
    const id = created.body.thread_id as string;
    await request(instance.app)
      .post(`/threads/${id}/edit`)
      .set(as('tok-bob-0123456789'))
      .send({ draft: 'Dear Ann, refunded.' })
      .expect(200);
    await request(instance.app)
      .post(`/threads/${id}/approve`)
      .set(as('tok-alice-0123456789'))
      .expect(200);

    expect((await actorsOf(instance.app, id, 'tok-alice-0123456789')).slice(0, 6)).toEqual([
      'created:alice',
      'classified:model',
      'drafted:model',
      'edited:bob',
      'approved:alice',
      'queued:system',
    ]);
  });

  test('when a JWT signed by the JWKS’s key carries an email, then changes record that email; with only a sub, the sub', async () => {
    const byEmail = await idp.sign({ email: 'carol@shop.test', sub: 'u-carol' });
    const bySub = await idp.sign({ sub: 'u-dave' });
    const created = await request(instance.app)
      .post('/threads')
      .set(as(byEmail))
      .send({ inbound: BILLING_EMAIL, from: 'ann@example.com' })
      .expect(201);
    const id = created.body.thread_id as string;

    await request(instance.app)
      .post(`/threads/${id}/reject`)
      .set(as(bySub))
      .send({ reason: 'Duplicate.' })
      .expect(200);

    expect(await actorsOf(instance.app, id, byEmail)).toEqual([
      'created:carol@shop.test',
      'classified:model',
      'drafted:model',
      'rejected:u-dave',
    ]);
  });

  test.each([
    ['expired', { expiresIn: Math.floor(Date.now() / 1000) - 60 }],
    ['for another audience', { audience: 'someone-else' }],
    ['from another issuer', { issuer: 'https://evil.example/' }],
  ])('when a JWT %s is presented, then 401 and nothing is created', async (_label, options) => {
    const token = await idp.sign({ email: 'mallory@shop.test' }, options);
    const before = (
      await request(instance.app).get('/threads').set(as('tok-alice-0123456789')).expect(200)
    ).body.items.length;

    const res = await request(instance.app)
      .post('/threads')
      .set(as(token))
      .send({ inbound: BILLING_EMAIL, from: 'ann@example.com' });

    expect(res.status).toBe(401);
    const after = (
      await request(instance.app).get('/threads').set(as('tok-alice-0123456789')).expect(200)
    ).body.items.length;
    expect(after).toBe(before);
  });

  test('when the single API_TOKEN acts, then the change records the actor `reviewer`', async () => {
    const token = 'the-one-token-0123456789';
    const created = await request(single.app)
      .post('/threads')
      .set(as(token))
      .send({ inbound: BILLING_EMAIL, from: 'ann@example.com' })
      .expect(201);

    await request(single.app).post(`/threads/${created.body.thread_id}/approve`).set(as(token));

    expect(await actorsOf(single.app, created.body.thread_id, token)).toEqual(
      expect.arrayContaining(['created:reviewer', 'approved:reviewer']),
    );
  });
});

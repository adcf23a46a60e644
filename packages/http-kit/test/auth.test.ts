import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { pino } from 'pino';
import request from 'supertest';
import {
  authEnvRules,
  authSettingsFromEnv,
  createHttpApp,
  currentActor,
  defineRoute,
  httpServiceEnv,
  type HttpAppOptions,
} from '../src/index.js';

const whoAmI = defineRoute({
  method: 'get',
  path: '/whoami',
  summary: 'The actor of this request.',
  responses: { 200: { description: 'The actor.' } },
  handler: ({ res }) => {
    res.json({ actor: currentActor() });
  },
});

function app(options: Partial<HttpAppOptions>) {
  return createHttpApp({
    name: 'test',
    logger: pino({ level: 'silent' }),
    api: { title: 'auth', version: '1', routes: [whoAmI] },
    ...options,
  });
}

const actorOf = async (target: ReturnType<typeof app>, token?: string) => {
  const req = request(target).get('/whoami');
  const res = token ? await req.set('authorization', `Bearer ${token}`) : await req;
  return res.status === 200 ? (res.body as { actor: string }).actor : res.status;
};

describe('actors from tokens', () => {
  test('when the service is open, then the actor is anonymous', async () => {
    expect(await actorOf(app({}))).toBe('anonymous');
  });

  test('when the single API_TOKEN is used, then the actor is reviewer', async () => {
    expect(await actorOf(app({ apiToken: 'single-token-1' }), 'single-token-1')).toBe('reviewer');
  });

  test('when named tokens are configured, then each token acts as its own name and others get 401', async () => {
    const target = app({
      apiToken: 'single-token-1',
      auth: {
        tokens: [
          { name: 'alice', token: 'alice-token-1' },
          { name: 'bob', token: 'bob-token-22' },
        ],
      },
    });
    expect(await actorOf(target, 'alice-token-1')).toBe('alice');
    expect(await actorOf(target, 'bob-token-22')).toBe('bob');
    expect(await actorOf(target, 'single-token-1')).toBe('reviewer');
    expect(await actorOf(target, 'alice-token-2')).toBe(401);
    expect(await actorOf(target)).toBe(401);
  });
});

describe('the OpenAPI document behind a token', () => {
  test('when API_TOKEN is set, then GET /openapi.json answers 401 without it and the document with it', async () => {
    const target = app({ apiToken: 'single-token-1' });
    expect((await request(target).get('/openapi.json')).status).toBe(401);
    const res = await request(target)
      .get('/openapi.json')
      .set('authorization', 'Bearer single-token-1');
    expect([res.status, (res.body as { openapi?: string }).openapi]).toEqual([200, '3.1.0']);
  });

  test('when no token is configured, then GET /openapi.json is open', async () => {
    expect((await request(app({})).get('/openapi.json')).status).toBe(200);
  });
});

describe('actors from JWTs', () => {
  let server: Server;
  let jwksUrl: string;
  let signingKey: CryptoKey;
  let strangerKey: CryptoKey;
  const AUDIENCE = 'email-review';
  const ISSUER = 'https://id.example.test/';

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    signingKey = pair.privateKey;
    strangerKey = (await generateKeyPair('RS256')).privateKey;
    const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  });

  afterAll(() => {
    server.close();
  });

  const jwtApp = () =>
    app({ auth: { tokens: [], jwt: { jwksUrl, audience: AUDIENCE, issuer: ISSUER } } });

  async function token(
    claims: Record<string, unknown>,
    options: {
      key?: CryptoKey;
      audience?: string;
      issuer?: string;
      expires?: string | number;
    } = {},
  ) {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuedAt()
      .setAudience(options.audience ?? AUDIENCE)
      .setIssuer(options.issuer ?? ISSUER)
      .setExpirationTime(options.expires ?? '5m')
      .sign(options.key ?? signingKey);
  }

  test('when a valid JWT carries an email, then the email is the actor; without one, the subject', async () => {
    const target = jwtApp();
    expect(await actorOf(target, await token({ email: 'ann@example.com', sub: 'u1' }))).toBe(
      'ann@example.com',
    );
    expect(await actorOf(target, await token({ sub: 'user-42' }))).toBe('user-42');
  });

  test('when the JWT is expired, for another audience or issuer, or signed by another key, then 401', async () => {
    const target = jwtApp();
    const past = Math.floor(Date.now() / 1000) - 60;
    expect(await actorOf(target, await token({ sub: 'u' }, { expires: past }))).toBe(401);
    expect(await actorOf(target, await token({ sub: 'u' }, { audience: 'helpdesk' }))).toBe(401);
    expect(await actorOf(target, await token({ sub: 'u' }, { issuer: 'https://evil.test/' }))).toBe(
      401,
    );
    expect(await actorOf(target, await token({ sub: 'u' }, { key: strangerKey }))).toBe(401);
  });

  test('when the JWT names nobody (no email, no sub), then 401', async () => {
    expect(await actorOf(jwtApp(), await token({}))).toBe(401);
  });

  test('when the JWT has no expiry, then 401', async () => {
    const forever = await new SignJWT({ sub: 'u' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuedAt()
      .setAudience(AUDIENCE)
      .setIssuer(ISSUER)
      .sign(signingKey);
    expect(await actorOf(jwtApp(), forever)).toBe(401);
  });

  test.each([
    ['answers 500', 500],
    ['refuses connections', 0],
  ])(
    'when the key set URL %s, then a JWT is answered 503 auth_unavailable with Retry-After, not 401',
    async (_what, status) => {
      const broken = createServer((_req, res) => res.writeHead(status).end('{}'));
      broken.listen(0, '127.0.0.1');
      await once(broken, 'listening');
      const port = (broken.address() as AddressInfo).port;
      if (status === 0) await new Promise((resolve) => broken.close(resolve));
      try {
        const target = app({
          auth: {
            tokens: [],
            jwt: {
              jwksUrl: `http://127.0.0.1:${port}/jwks.json`,
              audience: AUDIENCE,
              issuer: ISSUER,
            },
          },
        });
        const res = await request(target)
          .get('/whoami')
          .set('authorization', `Bearer ${await token({ sub: 'u' })}`);
        expect(res.status).toBe(503);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.body).toMatchObject({ code: 'auth_unavailable' });
        expect(res.headers['retry-after']).toBe('30');
      } finally {
        if (status !== 0) broken.close();
      }
    },
  );
});

describe('auth settings from the environment', () => {
  const schema = httpServiceEnv(1).superRefine(authEnvRules);

  test('when API_TOKENS lists name:token pairs, then each becomes a named token', () => {
    const env = schema.parse({ API_TOKENS: 'alice:alice-token-1, bob:bob-token-22' });
    expect(authSettingsFromEnv(env).tokens).toEqual([
      { name: 'alice', token: 'alice-token-1' },
      { name: 'bob', token: 'bob-token-22' },
    ]);
  });

  test('when API_TOKENS is a file path, then the pairs are read from it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tokens-')), 'tokens');
    writeFileSync(file, '# reviewers\nalice:alice-token-1\n\nbob:bob-token-22 # on call\n');
    expect(
      authSettingsFromEnv(schema.parse({ API_TOKENS: file })).tokens.map((t) => t.name),
    ).toEqual(['alice', 'bob']);
  });

  test('when an entry is malformed, then parsing fails without repeating the entry', () => {
    const result = schema.safeParse({ API_TOKENS: 'alice:alice-token-1,short:abc' });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).not.toContain('abc');
  });

  test('when AUTH_JWKS_URL is set without AUTH_AUDIENCE, then parsing fails naming it', () => {
    const result = schema.safeParse({ AUTH_JWKS_URL: 'https://id.example.test/jwks.json' });
    expect(result.error?.issues[0]?.path).toEqual(['AUTH_AUDIENCE']);
    const ok = schema.parse({
      AUTH_JWKS_URL: 'https://id.example.test/jwks.json',
      AUTH_AUDIENCE: 'a',
    });
    expect(authSettingsFromEnv(ok).jwt).toEqual({
      jwksUrl: 'https://id.example.test/jwks.json',
      audience: 'a',
    });
  });
});

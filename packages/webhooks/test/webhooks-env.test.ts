import { z } from 'zod';
import { endpointConfigSchema, webhooksEnv } from '../src/config/webhooks-env.js';

const endpoint = (secret: string) => ({
  url: 'https://hooks.example.com/in',
  secret,
  events: ['*'],
});

describe('an endpoint in WEBHOOK_ENDPOINTS', () => {
  it('when its secret is whsec_ and base64 (padded or not), then it is taken', () => {
    for (const secret of [
      `whsec_${Buffer.from('a secret of thirty-two bytes!!!!').toString('base64')}`,
      `whsec_${Buffer.alloc(30, 7).toString('base64')}`,
    ])
      expect(endpointConfigSchema.safeParse(endpoint(secret)).success).toBe(true);
  });

  it('when its secret has = inside, or is not whsec_ base64, then it is refused at start-up, not at each signature', () => {
    for (const secret of [
      'whsec_abcdefgh=ijklmnop',
      'whsec_abc=defghijklmnopq==',
      'abcdefghijklmnopqrst',
    ]) {
      const parsed = endpointConfigSchema.safeParse(endpoint(secret));
      expect(parsed.success).toBe(false);
      expect(parsed.error!.issues[0]).toMatchObject({
        path: ['secret'],
        message: 'must be a whsec_ base64 secret',
      });
    }
  });

  it('when two endpoints would have one id (one name, or one URL unnamed), then WEBHOOK_ENDPOINTS is refused, naming it', () => {
    const env = z.object(webhooksEnv());
    const secret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    const sameUrl = [endpoint(secret), { ...endpoint(secret), events: ['thread.created'] }];
    const sameName = [
      { ...endpoint(secret), name: 'crm' },
      { ...endpoint(secret), url: 'https://other.example.com/in', name: 'crm' },
    ];
    for (const list of [sameUrl, sameName]) {
      const parsed = env.safeParse({ WEBHOOK_ENDPOINTS: JSON.stringify(list) });
      expect(parsed.success).toBe(false);
      expect(parsed.error!.issues[0]!.message).toMatch(/has two endpoints named/);
    }
    const distinct = [
      { ...endpoint(secret), name: 'a' },
      { ...endpoint(secret), name: 'b' },
    ];
    expect(env.safeParse({ WEBHOOK_ENDPOINTS: JSON.stringify(distinct) }).success).toBe(true);
  });
});

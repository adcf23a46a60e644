import { endpointConfigSchema } from '../src/config/webhooks-env.js';

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
});

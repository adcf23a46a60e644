import request from 'supertest';
import { testApp } from './fixtures.js';

describe('bearer auth', () => {
  const secured = testApp({ apiToken: 's3cret-token', publicPaths: ['/public/'] });

  test('when API_TOKEN is unset, then routes are open', async () => {
    const res = await request(testApp()).post('/echo').send({ name: 'a' });
    expect(res.status).toBe(200);
  });

  test('when the token is missing, then 401 with WWW-Authenticate', async () => {
    const res = await request(secured).post('/echo').send({ name: 'a' });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  test('when the token is wrong, then 401', async () => {
    const res = await request(secured)
      .post('/echo')
      .set('authorization', 'Bearer s3cret-tokeN')
      .send({ name: 'a' });
    expect(res.status).toBe(401);
  });

  test('when the token is right, then the route answers', async () => {
    const res = await request(secured)
      .post('/echo')
      .set('authorization', 'Bearer s3cret-token')
      .send({ name: 'a' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'a' });
  });

  test('when the token is required, then health routes stay open', async () => {
    expect((await request(secured).get('/healthz')).status).toBe(200);
    expect((await request(secured).get('/readyz')).status).toBe(200);
  });

  test('when a public prefix is configured, then paths under it skip auth', async () => {
    const res = await request(secured).get('/public/missing.js');
    expect(res.status).toBe(404);
  });
});

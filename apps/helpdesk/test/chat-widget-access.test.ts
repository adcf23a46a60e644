import { readFile } from 'node:fs/promises';
import { loadServiceEnv } from '../src/env.js';
import {
  INVOICE_QUESTION,
  startHelpdesk,
  undocumentedResponsesSoFar,
  type HarnessOptions,
  type HelpdeskUnderTest,
} from './support/harness.js';
import { buildService, startService } from './support/service-process.js';
import { startWidgetSession, widgetRead, widgetSend } from './support/widget-session.js';

const TOKEN = 'widget-test-token-0123456789';

// The document cannot drift: every answer of the API's routes seen here (429s included) is documented.
afterAll(async () => {
  expect(await undocumentedResponsesSoFar()).toEqual([]);
});

describe('the chat page and widget.js, served', () => {
  let helpdesk: HelpdeskUnderTest;

  beforeAll(async () => {
    helpdesk = await startHelpdesk();
  });
  afterAll(() => helpdesk.close());

  it('when the page is asked for, then it comes with a strict CSP that any site may frame by default', async () => {
    const page = await helpdesk.http.get('/').expect(200);

    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = page.headers['content-security-policy'];
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain('frame-ancestors *');
    // No inline script or handler for the CSP to have to allow.
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page.text).not.toMatch(/\son[a-z]+=/);
    await helpdesk.http
      .get('/assets/chat.js')
      .expect(200)
      .expect('content-type', /javascript/);
  });

  it('when widget.js is asked for, then it is script other origins may load', async () => {
    const widget = await helpdesk.http.get('/widget.js').expect(200);

    expect(widget.headers['content-type']).toMatch(/^text\/javascript/);
    expect(widget.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(widget.text).toContain("'/?embed=1'");
  });

  it('when the page and its assets are on disk, then no asset has inline HTML sinks', async () => {
    for (const file of ['chat.js', 'conversation-view.js', 'event-stream.js']) {
      const source = await readFile(new URL(`../web/assets/${file}`, import.meta.url), 'utf8');
      expect(source).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    }
  });
});

describe('WIDGET_ALLOWED_ORIGINS', () => {
  it('when origins are listed, then only they may frame the page', async () => {
    const helpdesk = await startHelpdesk({
      widget: { allowedOrigins: ['https://shop.example', 'http://127.0.0.1:8080'] },
    });
    try {
      const page = await helpdesk.http.get('/').expect(200);
      expect(page.headers['content-security-policy']).toContain(
        'frame-ancestors https://shop.example http://127.0.0.1:8080;',
      );
    } finally {
      await helpdesk.close();
    }
  });

  it('when the settings are read, then a list becomes origins and anything else is refused', () => {
    const env = (extra: Record<string, string>) =>
      loadServiceEnv({ AGENT_LLM_API_KEY: 'k', ...extra });
    expect(env({}).WIDGET_ALLOWED_ORIGINS).toBe('*');
    expect(env({}).WIDGET_PUBLIC).toBe(false);
    expect(
      env({ WIDGET_ALLOWED_ORIGINS: 'https://a.example, https://b.example:8443' })
        .WIDGET_ALLOWED_ORIGINS,
    ).toEqual(['https://a.example', 'https://b.example:8443']);
    expect(() => env({ WIDGET_ALLOWED_ORIGINS: "https://a.example 'unsafe-inline'" })).toThrow(
      /WIDGET_ALLOWED_ORIGINS/,
    );
    expect(() => env({ WIDGET_PUBLIC: 'yes' })).toThrow(/WIDGET_PUBLIC/);
    expect(env({ WIDGET_PUBLIC: 'true', PUBLIC_URL: 'https://helpdesk.example/' })).toMatchObject({
      WIDGET_PUBLIC: true,
      WIDGET_RATE_PER_IP: 60,
      WIDGET_RATE_PER_SESSION: 20,
      PUBLIC_URL: 'https://helpdesk.example',
    });
  });
});

describe('with API_TOKEN and a private widget', () => {
  let helpdesk: HelpdeskUnderTest;

  beforeAll(async () => {
    helpdesk = await startHelpdesk({ apiToken: TOKEN });
  });
  afterAll(() => helpdesk.close());

  it('when a browser has no token, then the page loads (it asks for one) but the chat refuses', async () => {
    await helpdesk.http.get('/').expect(200);
    await helpdesk.http.get('/assets/chat.js').expect(200);
    await helpdesk.http.get('/widget.js').expect(200);
    await helpdesk.http.get('/.well-known/agent-card.json').expect(200);

    await helpdesk.send('private-1', INVOICE_QUESTION).expect(401);
    await helpdesk.http.get('/sessions/private-1').expect(401);
    await helpdesk
      .send('private-1', INVOICE_QUESTION)
      .set('authorization', `Bearer ${TOKEN}`)
      .expect(200);
  });
});

describe('with API_TOKEN and WIDGET_PUBLIC', () => {
  let helpdesk: HelpdeskUnderTest;

  beforeAll(async () => {
    helpdesk = await startHelpdesk({
      apiToken: TOKEN,
      widget: { public: { perIp: 8, perSession: 2 } },
    });
  });
  afterAll(() => helpdesk.close());

  it('when a customer has no token, then the conversation the widget started answers, and nothing else does', async () => {
    const widget = await startWidgetSession(helpdesk.http);
    const reply = await widgetSend(helpdesk.http, widget, INVOICE_QUESTION).expect(200);
    expect(reply.body).toMatchObject({ agent: 'billing' });
    const transcript = await widgetRead(helpdesk.http, widget).expect(200);
    expect(transcript.body.turns).toHaveLength(2);

    await helpdesk.http.delete(`/sessions/${widget.session_id}`).expect(401);
    await helpdesk.http.get('/openapi.json').expect(401);
    await helpdesk.http
      .post('/a2a')
      .send({ jsonrpc: '2.0', id: 1, method: 'tasks/get' })
      .expect(401);
  });

  it('when one conversation sends too many messages, then 429 rate_limited with Retry-After, and no turn runs', async () => {
    const widget = await startWidgetSession(helpdesk.http);
    await widgetSend(helpdesk.http, widget, INVOICE_QUESTION).expect(200);
    await widgetSend(helpdesk.http, widget, INVOICE_QUESTION).expect(200);
    helpdesk.emulator.requests.clear();

    const limited = await widgetSend(helpdesk.http, widget, INVOICE_QUESTION).expect(429);

    expect(limited.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toMatchObject({ status: 429, code: 'rate_limited', scope: 'session' });
    expect(helpdesk.modelCalls()).toEqual([]);
  });

  it('when one address sends too many requests, then 429 rate_limited for every session it uses', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await helpdesk.http.get(`/sessions/public-ip-${i}`)).status);
    }
    const limited = await helpdesk.send('public-3', INVOICE_QUESTION);

    // 8 per address: a start, a chat and a transcript read in the first test, a start and three
    // chats in the second (the refused one counts too), then these.
    expect(statuses).toEqual([404, 429, 429]);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited', scope: 'ip' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe("the public widget's rate limits", () => {
  const limited = (perIp: number, extra: HarnessOptions = {}) =>
    startHelpdesk({ apiToken: TOKEN, widget: { public: { perIp, perSession: 100 } }, ...extra });

  it('when TRUST_PROXY names the proxy in front, then each client behind it has a limit of its own', async () => {
    const helpdesk = await limited(2, { trustProxy: ['loopback'] });
    try {
      const from = (address: string) =>
        helpdesk.http.get('/sessions/nobody-here').set('x-forwarded-for', address);
      const first: number[] = [];
      for (let i = 0; i < 3; i++) first.push((await from('198.51.100.1')).status);

      expect(first).toEqual([404, 404, 429]);
      expect((await from('198.51.100.2')).status).toBe(404);
    } finally {
      await helpdesk.close();
    }
  });

  it('when requests carry a valid token, then the public limit neither counts nor refuses them', async () => {
    const helpdesk = await limited(2);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const read = helpdesk.http.get('/sessions/nobody-here');
        statuses.push((await read.set('authorization', `Bearer ${TOKEN}`)).status);
      }

      expect(statuses).toEqual([404, 404, 404, 404]);
      expect((await helpdesk.http.get('/sessions/nobody-here')).status).toBe(404);
      expect((await helpdesk.http.get('/sessions/nobody-here')).status).toBe(404);
    } finally {
      await helpdesk.close();
    }
  });

  it('when a path is spelled as the router also takes it (/CHAT, /chat/), then it counts as any other', async () => {
    const helpdesk = await limited(2);
    try {
      const statuses = [
        (await helpdesk.http.get('/SESSIONS/nobody-here/')).status,
        (await helpdesk.http.post('/Chat/').send({ session_id: 'nobody-here', message: 'Hi' }))
          .status,
        (await helpdesk.http.get('/sessions/nobody-here')).status,
      ];

      expect(statuses).toEqual([404, 404, 429]);
    } finally {
      await helpdesk.close();
    }
  });

  it('when messages come as application/*+json, then the per-session limit counts them', async () => {
    const helpdesk = await startHelpdesk({
      apiToken: TOKEN,
      widget: { public: { perIp: 100, perSession: 1 } },
    });
    try {
      const widget = await startWidgetSession(helpdesk.http);
      const send = () =>
        helpdesk.http
          .post('/chat')
          .set('content-type', 'application/vnd.api+json')
          .set('x-widget-token', widget.widget_token)
          .send(JSON.stringify({ session_id: widget.session_id, message: INVOICE_QUESTION }));

      await send().expect(200);
      const second = await send().expect(429);

      expect(second.body).toMatchObject({ code: 'rate_limited', scope: 'session' });
    } finally {
      await helpdesk.close();
    }
  });
});

describe('TRUST_PROXY, as server.ts reads it', () => {
  it('when the environment names the proxy, then the service limits each client behind it apart', async () => {
    await buildService();
    const service = await startService({
      API_TOKEN: TOKEN,
      WIDGET_PUBLIC: 'true',
      WIDGET_RATE_PER_IP: '1',
      TRUST_PROXY: 'loopback',
    });
    try {
      const from = async (address: string) =>
        (
          await fetch(`${service.url}/sessions/nobody-here`, {
            headers: { 'x-forwarded-for': address },
          })
        ).status;

      expect([await from('198.51.100.1'), await from('198.51.100.1')]).toEqual([404, 429]);
      expect(await from('198.51.100.2')).toBe(404);
    } finally {
      await service.stop();
    }
  }, 120_000);
});

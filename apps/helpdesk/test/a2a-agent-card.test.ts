import { get } from 'node:http';
import { ConfigError } from '@repo/llm-config';
import { loadServiceEnv } from '../src/env.js';
import { startHelpdesk, type HelpdeskUnderTest } from './support/harness.js';

const BASE_ENV = { AGENT_LLM_API_KEY: 'test-key' };

/** The card's url, asked with headers fetch would not send as given (Host). */
function cardUrlAsked(url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    get(`${url}/.well-known/agent-card.json`, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve((JSON.parse(body) as { url: string }).url));
    }).on('error', reject);
  });
}

describe('the A2A agent card URL, without PUBLIC_URL', () => {
  let helpdesk: HelpdeskUnderTest;
  let url: string;

  beforeAll(async () => {
    helpdesk = await startHelpdesk();
    url = await helpdesk.url();
  });
  afterAll(() => helpdesk.close());

  it('when the card is asked with another Host header, then it names the address the service listens on', async () => {
    const cardUrl = await cardUrlAsked(url, {
      host: 'attacker.example',
      'x-forwarded-host': 'attacker.example',
      'x-forwarded-proto': 'https',
    });

    expect(cardUrl).toBe(`${url}/a2a`);
  });
});

describe('the A2A agent card URL, with PUBLIC_URL', () => {
  let helpdesk: HelpdeskUnderTest;

  beforeAll(async () => {
    helpdesk = await startHelpdesk({ publicUrl: 'https://helpdesk.example/support' });
  });
  afterAll(() => helpdesk.close());

  it('when the card is asked on any host, then its url is PUBLIC_URL/a2a', async () => {
    const card = await helpdesk.http
      .get('/.well-known/agent-card.json')
      .set('host', 'attacker.example')
      .expect(200);

    expect(card.body.url).toBe('https://helpdesk.example/support/a2a');
  });
});

describe('PUBLIC_URL', () => {
  it('when it ends with a slash, then the slash is dropped', () => {
    expect(
      loadServiceEnv({ ...BASE_ENV, PUBLIC_URL: 'https://helpdesk.example/' }).PUBLIC_URL,
    ).toBe('https://helpdesk.example');
  });

  it.each([
    'https://helpdesk.example/?tenant=1',
    'https://helpdesk.example/#a',
    'https://u:p@helpdesk.example',
    'ftp://helpdesk.example',
  ])('when it is %s, then start-up refuses it naming PUBLIC_URL', (value) => {
    expect(() => loadServiceEnv({ ...BASE_ENV, PUBLIC_URL: value })).toThrow(ConfigError);
    expect(() => loadServiceEnv({ ...BASE_ENV, PUBLIC_URL: value })).toThrow(/PUBLIC_URL/);
  });
});

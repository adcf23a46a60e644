import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpInvoices, httpServiceStatuses } from '../src/tools/http-sources.js';
import {
  functionResponsesIn,
  OUTAGE_QUESTION,
  startHelpdesk,
  type HelpdeskUnderTest,
} from './support/harness.js';

const INV_7001 = {
  invoice_id: 'INV-7001',
  customer: 'Initech',
  billing_email: 'ap@initech.example',
  amount: 420.5,
  currency: 'CHF',
  status: 'open',
  issued_on: '2026-10-01',
  due_on: '2026-10-31',
};

/** A billing and status system on loopback: its records, a 404 for others, one that never answers. */
async function startRecordServer() {
  const asked: string[] = [];
  const server: Server = createServer((req, res) => {
    asked.push(req.url ?? '');
    if (req.url === '/invoices/INV-7001') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(INV_7001));
    } else if (req.url === '/status/api') {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({ service: 'api', status: 'outage', message: 'Our API is down in eu-1.' }),
      );
    } else if (req.url === '/invoices/INV-7999') {
      // Never answers: the source's timeout ends the wait.
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    asked,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

const lookupsIn = (helpdesk: HelpdeskUnderTest) =>
  helpdesk
    .modelCalls()
    .flatMap(functionResponsesIn)
    .filter((r) => r.name === 'lookup_invoice')
    .map((r) => r.response);

describe('tool data sources over HTTP', () => {
  let records: Awaited<ReturnType<typeof startRecordServer>>;
  let helpdesk: HelpdeskUnderTest | undefined;

  beforeAll(async () => {
    records = await startRecordServer();
  });
  afterAll(() => records.close());
  afterEach(async () => {
    await helpdesk?.close();
    helpdesk = undefined;
    records.asked.length = 0;
  });

  const start = (options: Parameters<typeof startHelpdesk>[0] = {}) =>
    startHelpdesk({
      toolSources: {
        invoices: httpInvoices({ url: `${records.url}/invoices`, timeoutMs: 300 }),
        services: httpServiceStatuses({ url: `${records.url}/status`, timeoutMs: 300 }),
      },
      ...options,
    });

  it('when INVOICE_SOURCE_URL is set, then lookup_invoice answers from it, not from the static data', async () => {
    helpdesk = await start();

    const known = await helpdesk
      .send('src-1', 'What is the amount due on invoice INV-7001?')
      .expect(200);
    const demo = await helpdesk
      .send('src-2', 'What is the amount due on invoice INV-1001?')
      .expect(200);

    expect(records.asked).toEqual(['/invoices/INV-7001', '/invoices/INV-1001']);
    expect(lookupsIn(helpdesk)).toEqual([
      { found: true, ...INV_7001 },
      expect.objectContaining({ found: false, invoice_id: 'INV-1001' }),
    ]);
    expect(known.body.reply).toContain('INV-7001');
    expect(known.body.reply).toContain('420.50 CHF');
    expect(demo.body.reply).toMatch(/could not find invoice INV-1001/);
  });

  it('when the access rule refuses the caller, then an invoice of the source is not shown either', async () => {
    helpdesk = await start({ invoiceAccess: () => false });

    await helpdesk.send('src-3', 'What is the amount due on invoice INV-7001?').expect(200);

    expect(records.asked).toEqual(['/invoices/INV-7001']);
    expect(lookupsIn(helpdesk)).toEqual([expect.objectContaining({ found: false })]);
    expect(JSON.stringify(lookupsIn(helpdesk))).not.toContain('Initech');
  });

  it('when the source does not answer in time, then the turn still answers, saying the billing system is away', async () => {
    helpdesk = await start();

    const res = await helpdesk
      .send('src-4', 'What is the amount due on invoice INV-7999?')
      .expect(200);

    expect(lookupsIn(helpdesk)).toEqual([
      expect.objectContaining({ found: false, invoice_id: 'INV-7999', unavailable: true }),
    ]);
    expect(res.body.reply).toMatch(/billing system is not answering/);
  });

  it('when STATUS_SOURCE_URL is set, then check_service_status answers from it', async () => {
    helpdesk = await start();

    const res = await helpdesk.send('src-5', OUTAGE_QUESTION).expect(200);

    expect(records.asked).toEqual(['/status/api']);
    expect(res.body.agent).toBe('technical');
    expect(res.body.reply).toContain('Our API is down in eu-1.');
  });
});

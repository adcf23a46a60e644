import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { ImapFlow } from 'imapflow';
import type { Thread } from '../../src/threads/thread.js';

/** One raw message and what the thread made of it should show. */
export interface MailCase {
  raw: string;
  messageId: string;
  from: string;
  subject: string;
  /** A phrase the thread's text must hold. */
  text: string;
  attachments?: string[];
}

const id = (label: string) => `<${label}-${randomBytes(6).toString('hex')}@customer.example>`;

/** Six kinds of mail, cycled: plain, multipart/alternative, HTML only, ISO-8859-1, RFC 2047 subject, attachment. */
export function variedMail(index: number): MailCase {
  const messageId = id(`m${index}`);
  const head = (from: string, subject: string, type: string) =>
    `From: ${from}\r\nTo: support@service.example\r\nSubject: ${subject}\r\nMessage-ID: ${messageId}\r\nDate: Wed, 25 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: ${type}\r\n`;
  switch (index % 6) {
    case 0:
      return {
        raw: `${head('Ann Plain <ann@customer.example>', `Plain ${index}`, 'text/plain; charset=utf-8')}\r\nMy invoice ${index} is wrong, please check.\r\n`,
        messageId,
        from: 'Ann Plain <ann@customer.example>',
        subject: `Plain ${index}`,
        text: `My invoice ${index} is wrong`,
      };
    case 1:
      return {
        raw: `${head('bob@customer.example', `Alternative ${index}`, 'multipart/alternative; boundary="b1"')}\r\n--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nThe app crashes on start (${index}).\r\n--b1\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>The app <b>crashes</b> on start (${index}).</p>\r\n--b1--\r\n`,
        messageId,
        from: 'bob@customer.example',
        subject: `Alternative ${index}`,
        text: `The app crashes on start (${index})`,
      };
    case 2:
      return {
        raw: `${head('Cy Html <cy@customer.example>', `Html only ${index}`, 'text/html; charset=utf-8')}\r\n<html><body><p>Please cancel order <b>${index}</b> today.</p></body></html>\r\n`,
        messageId,
        from: 'Cy Html <cy@customer.example>',
        subject: `Html only ${index}`,
        text: `Please cancel order ${index} today`,
      };
    case 3:
      // "Grüße aus Köln" in ISO-8859-1, quoted-printable.
      return {
        raw: `${head('dora@customer.example', `Latin ${index}`, 'text/plain; charset=iso-8859-1')}Content-Transfer-Encoding: quoted-printable\r\n\r\nGr=FC=DFe aus K=F6ln, Bestellung ${index} fehlt.\r\n`,
        messageId,
        from: 'dora@customer.example',
        subject: `Latin ${index}`,
        text: `Grüße aus Köln, Bestellung ${index} fehlt`,
      };
    case 4:
      // RFC 2047: "Rückerstattung für 12" (Q) and a B-encoded display name "Émile".
      return {
        raw: `${head('=?UTF-8?B?w4ltaWxl?= <emile@customer.example>', `=?UTF-8?Q?R=C3=BCckerstattung_f=C3=BCr_${index}?=`, 'text/plain; charset=utf-8')}\r\nI would like a refund for ${index}.\r\n`,
        messageId,
        from: 'Émile <emile@customer.example>',
        subject: `Rückerstattung für ${index}`,
        text: `I would like a refund for ${index}`,
      };
    default:
      return {
        raw: `${head('eve@customer.example', `Attachment ${index}`, 'multipart/mixed; boundary="b2"')}\r\n--b2\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nThe screenshot of error ${index} is attached.\r\n--b2\r\nContent-Type: image/png\r\nContent-Disposition: attachment; filename="error-${index}.png"\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n--b2--\r\n`,
        messageId,
        from: 'eve@customer.example',
        subject: `Attachment ${index}`,
        text: `The screenshot of error ${index} is attached`,
        attachments: [`error-${index}.png`],
      };
  }
}

/** A short plain message with its own Message-ID. */
export function plainMail(label: string): { raw: string; messageId: string } {
  const messageId = id(label);
  return {
    messageId,
    raw: `From: burst@customer.example\r\nSubject: ${label}\r\nMessage-ID: ${messageId}\r\n\r\nMessage ${label}: where is my parcel?\r\n`,
  };
}

/**
 * A small, well-formed message with `parts` MIME parts besides its root (mailparser refuses more
 * than 1,000), its first part readable text.
 */
export function manyParts(parts: number, messageId = id('many-parts')): string {
  const part = (n: number) =>
    `--p\r\nContent-Type: text/plain\r\n\r\nPart ${n}: my order is late.\r\n`;
  const body = Array.from({ length: parts }, (_, n) => part(n)).join('');
  return `From: parts@customer.example\r\nSubject: many parts\r\nMessage-ID: ${messageId}\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="p"\r\n\r\n${body}--p--\r\n`;
}

/** Every thread, through GET /threads pages (a running service's URL). */
export async function allThreads(baseUrl: string, token?: string): Promise<Thread[]> {
  const threads: Thread[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = (await getJson(`${baseUrl}/threads?${query}`, token)) as {
      items: Thread[];
      next_cursor: string | null;
    };
    threads.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return threads;
}

export function getJson(url: string, token?: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { headers: token ? { authorization: `Bearer ${token}` } : {} },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => {
          try {
            resolve(JSON.parse(body));
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Appends many messages over one connection. */
export async function appendAll(client: ImapFlow, mailbox: string, raws: string[]): Promise<void> {
  for (const raw of raws) await client.append(mailbox, raw);
}

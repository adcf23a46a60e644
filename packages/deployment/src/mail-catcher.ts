import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

/** The address the demo's replies come from. */
export const DEMO_MAIL_FROM = 'Support <support@demo.test>';

export interface MailCatcher {
  url: string;
  dir: string;
  close(): Promise<void>;
}

/** A file name from the message's Message-ID (`reply-<thread>@demo.test.eml`), or its arrival. */
function fileNameOf(raw: string, arrival: number): string {
  const id = /^Message-ID:\s*<([^>\r\n]+)>/im.exec(raw)?.[1];
  const safe = id?.replace(/[^A-Za-z0-9@._-]/g, '_');
  return `${safe ?? `message-${arrival}`}.eml`;
}

/**
 * The demo's local mail server: accepts whatever email-review sends on loopback (no TLS, no auth)
 * and writes each message as an .eml file in `dir`, named by its Message-ID.
 */
export async function startMailCatcher(options: {
  host: string;
  port: number;
  dir: string;
}): Promise<MailCatcher> {
  mkdirSync(options.dir, { recursive: true });
  let arrivals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 10 * 1024 * 1024,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        arrivals += 1;
        writeFileSync(join(options.dir, fileNameOf(raw.toString('utf8'), arrivals)), raw);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  server.on('error', () => {});
  return {
    url: `smtp://${options.host}:${options.port}`,
    dir: options.dir,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

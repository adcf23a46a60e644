import { createServer, type AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  raw: string;
  parsed: ParsedMail;
}

/** What the sink answers to a recipient: undefined accepts; otherwise an SMTP error reply. */
export type RecipientRule = (address: string) => { code: number; message: string } | undefined;

/** A free loopback port (so a sink can start later on a port the service already knows). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A real SMTP server on loopback (the `smtp-server` package): it speaks SMTP to nodemailer, keeps
 * what it accepts, and refuses recipients as `rule` says. No STARTTLS, no auth: a local catcher.
 */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  rule: RecipientRule = () => undefined;
  private server: SMTPServer | undefined;
  private held: Promise<void> | undefined;

  constructor(readonly port: number) {}

  static async start(port?: number): Promise<SmtpSink> {
    const sink = new SmtpSink(port ?? (await freePort()));
    await sink.listen();
    return sink;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async listen(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        const refusal = this.rule(address.address);
        if (!refusal) return callback();
        const error = Object.assign(new Error(refusal.message), {
          responseCode: refusal.code,
        });
        callback(error);
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks);
          this.parseOnceReleased(raw).then((parsed) => {
            this.received.push({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              },
              raw: raw.toString('utf8'),
              parsed,
            });
            callback();
          }, callback);
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    server.on('error', () => {});
    this.server = server;
  }

  /**
   * Holds the answer to each message's DATA (the sender waits, its delivery still under way) until
   * the returned function is called.
   */
  holdAcceptance(): () => void {
    let release = () => {};
    this.held = new Promise((resolve) => {
      release = resolve;
    });
    return () => {
      this.held = undefined;
      release();
    };
  }

  private async parseOnceReleased(raw: Buffer): Promise<ParsedMail> {
    await this.held;
    return simpleParser(raw);
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** How many messages carried each Message-ID more than once (duplicate deliveries). */
  duplicates(): number {
    const seen = new Map<string, number>();
    for (const mail of this.received) {
      const id = mail.parsed.messageId ?? '';
      seen.set(id, (seen.get(id) ?? 0) + 1);
    }
    return [...seen.values()].reduce((sum, count) => sum + Math.max(0, count - 1), 0);
  }

  byMessageId(messageId: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.parsed.messageId === messageId);
  }
}

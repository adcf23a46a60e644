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

/** The user and password a sink started with `auth` accepts (AUTH PLAIN or LOGIN). */
export const SMTP_USER = 'mailer';
export const SMTP_PASSWORD = 'smtp-secret';

/**
 * A real SMTP server on loopback (the `smtp-server` package): it speaks SMTP to nodemailer, keeps
 * what it accepts, and refuses recipients as `rule` says. No STARTTLS, no auth: a local catcher;
 * with `auth`, it requires AUTH (still without STARTTLS: the password comes unencrypted).
 */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  /** Every AUTH the sink was sent, as `user:password`. */
  readonly logins: string[] = [];
  rule: RecipientRule = () => undefined;
  private server: SMTPServer | undefined;
  private held: Promise<void> | undefined;

  constructor(
    readonly port: number,
    private readonly auth = false,
  ) {}

  static async start(port?: number, options: { auth?: boolean } = {}): Promise<SmtpSink> {
    const sink = new SmtpSink(port ?? (await freePort()), options.auth);
    await sink.listen();
    return sink;
  }

  get url(): string {
    const credentials = this.auth ? `${SMTP_USER}:${SMTP_PASSWORD}@` : '';
    return `smtp://${credentials}127.0.0.1:${this.port}`;
  }

  async listen(): Promise<void> {
    const server = new SMTPServer({
      authOptional: !this.auth,
      allowInsecureAuth: true,
      disabledCommands: this.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
      onAuth: (auth, _session, callback) => {
        this.logins.push(`${auth.username}:${auth.password}`);
        if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD)
          return callback(null, { user: auth.username });
        callback(new Error('Invalid username or password'));
      },
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

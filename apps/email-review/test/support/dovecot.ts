import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { requireInstalled } from '@repo/jest-preset/test-servers.mjs';
import { ImapFlow } from 'imapflow';
import { SignJWT } from 'jose';
import type { MailboxSettings } from '../../src/mailbox/mailbox-service.js';
import { freePort } from './smtp-sink.js';

export const DOVECOT = '/usr/sbin/dovecot';
export const MAIL_USER = 'support';
export const MAIL_PASSWORD = 'mailbox-secret';
/** The HS256 key Dovecot checks XOAUTH2 access tokens (JWTs) against. */
const OAUTH2_KEY = randomBytes(32);

/** An access token for the test user, as an identity provider would issue it. */
export async function accessToken(user = MAIL_USER, key: Uint8Array = OAUTH2_KEY): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(key);
}

/** Dovecot refuses to give a mailbox to uid 0: as root, the mail belongs to `nobody`. */
function mailOwner(): { uid: number; gid: number; name: string } {
  const me = userInfo();
  if (me.uid !== 0) return { uid: me.uid, gid: me.gid, name: me.username };
  return { uid: 65534, gid: 65534, name: 'nobody' };
}

function config(dir: string, port: number): string {
  const owner = mailOwner();
  // Dovecot's login and auth processes must not run as root either.
  const root = userInfo().uid === 0;
  const me = userInfo().username;
  return `
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login xoauth2
default_internal_user = ${root ? 'dovecot' : me}
default_login_user = ${root ? 'dovenull' : me}
first_valid_uid = ${owner.uid}
last_valid_uid = ${owner.uid}
first_valid_gid = 0
mail_location = maildir:${dir}/mail/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
# XOAUTH2: JWTs checked locally against the HS256 key in oauth2-keys/ (no identity provider needed).
passdb {
  driver = oauth2
  mechanisms = xoauth2
  args = ${dir}/oauth2.conf
}
userdb {
  driver = static
  args = uid=${owner.uid} gid=${owner.gid} home=${dir}/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service imap-login {
  chroot =
}
namespace inbox {
  inbox = yes
  separator = /
  mailbox Sent {
    auto = create
    special_use = \\Sent
  }
}
`;
}

async function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('data', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A real Dovecot (Debian's dovecot-imapd) as an ordinary child process: its own configuration,
 * maildir, passwd-file (plain passwords) and loopback port, all in one temp dir that stop() removes.
 */
export class Dovecot {
  private child: ChildProcess | undefined;

  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly binary: string,
  ) {}

  /** `binary`: another path to Dovecot (a test of the missing-server message gives one that is not there). */
  static async start(options: { binary?: string } = {}): Promise<Dovecot> {
    const binary = options.binary ?? DOVECOT;
    requireInstalled('Dovecot', binary);
    const dir = mkdtempSync(join(tmpdir(), 'dovecot-'));
    chmodSync(dir, 0o755);
    const owner = mailOwner();
    for (const sub of ['run', 'state', 'mail']) mkdirSync(join(dir, sub));
    chownSync(join(dir, 'mail'), owner.uid, owner.gid);
    writeFileSync(join(dir, 'passwd'), `${MAIL_USER}:{PLAIN}${MAIL_PASSWORD}::::::\n`);
    writeFileSync(
      join(dir, 'oauth2.conf'),
      `introspection_mode = local\nlocal_validation_key_dict = fs:posix:prefix=${dir}/oauth2-keys/\nusername_attribute = sub\nusername_format = %u\n`,
    );
    mkdirSync(join(dir, 'oauth2-keys', 'default', 'HS256'), { recursive: true });
    writeFileSync(
      join(dir, 'oauth2-keys', 'default', 'HS256', 'default'),
      OAUTH2_KEY.toString('base64'),
    );
    const dovecot = new Dovecot(dir, await freePort(), binary);
    writeFileSync(join(dir, 'dovecot.conf'), config(dir, dovecot.port));
    await dovecot.resume();
    return dovecot;
  }

  /** imap:// with the test user's password, INBOX unless another mailbox is named. */
  url(mailbox = 'INBOX'): string {
    return `imap://${MAIL_USER}:${MAIL_PASSWORD}@127.0.0.1:${this.port}/${mailbox}`;
  }

  /**
   * The service's mailbox settings for this server (polling every second besides IDLE), plaintext
   * auth allowed (MAIL_ALLOW_PLAINTEXT_AUTH).
   */
  settings(
    options: { mailbox?: string; processed?: string; sentFolder?: string } = {},
  ): MailboxSettings {
    return {
      // This server has no STARTTLS (ssl = no): the service is told it may log in unencrypted.
      imap: { url: this.url(options.mailbox), timeoutMs: 5_000, allowPlaintextAuth: true },
      pollMs: 1_000,
      folders: {
        quarantine: 'Quarantine',
        ...(options.processed ? { processed: options.processed } : {}),
      },
      ...(options.sentFolder ? { sentFolder: options.sentFolder } : {}),
    };
  }

  /** Starts the server (again, after pause()) and waits for its greeting. */
  async resume(): Promise<void> {
    // Its own process group, so that pause() stops the session processes too, not only the master.
    const child = spawn(this.binary, ['-F', '-c', join(this.dir, 'dovecot.conf')], {
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    this.child = child;
    const deadline = Date.now() + 15_000;
    while (!(await portAnswers(this.port))) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`dovecot did not start: ${stderr}\n${this.log()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Stops the server process (mail stays on disk): clients see their connections drop. */
  /** Frozen (SIGSTOP): connections are accepted by the kernel, but nothing answers until thaw(). */
  freeze(): void {
    if (this.child?.pid) process.kill(-this.child.pid, 'SIGSTOP');
  }

  thaw(): void {
    if (this.child?.pid) process.kill(-this.child.pid, 'SIGCONT');
  }

  async pause(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = once(child, 'exit');
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
    // Session processes left over (they may outlive the master briefly) go too.
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // The group is already empty.
    }
  }

  async stop(): Promise<void> {
    await this.pause();
    rmSync(this.dir, { recursive: true, force: true });
  }

  log(): string {
    try {
      return readFileSync(join(this.dir, 'dovecot.log'), 'utf8');
    } catch {
      return '';
    }
  }

  /** A client of the test's own (not the service's), e.g. to append mail or read flags. */
  async client(): Promise<ImapFlow> {
    const client = new ImapFlow({
      host: '127.0.0.1',
      port: this.port,
      secure: false,
      auth: { user: MAIL_USER, pass: MAIL_PASSWORD },
      logger: false,
    });
    await client.connect();
    return client;
  }

  /** Runs `work` with a fresh client, logged out afterwards. */
  async with<T>(work: (client: ImapFlow) => Promise<T>): Promise<T> {
    const client = await this.client();
    try {
      return await work(client);
    } finally {
      await client.logout().catch(() => client.close());
    }
  }

  async append(raw: string | Buffer, mailbox = 'INBOX'): Promise<void> {
    await this.with((client) => client.append(mailbox, raw));
  }

  /**
   * Puts a message straight into INBOX's maildir, as a delivery agent does: mail arrives while the
   * IMAP server is down.
   */
  deliver(raw: string): void {
    const owner = mailOwner();
    const file = join(
      this.dir,
      'mail',
      MAIL_USER,
      'new',
      `${Date.now()}.${randomBytes(6).toString('hex')}.test`,
    );
    writeFileSync(file, raw.replace(/\r?\n/g, '\n'));
    chownSync(file, owner.uid, owner.gid);
  }

  /**
   * Makes the server refuse (or, with `false`, accept again) to store messages in `folder`: its
   * maildir becomes read-only for the mail owner, so a MOVE into it fails with NO.
   */
  refuseWritesTo(folder: string, refuse = true): void {
    for (const sub of ['tmp', 'new', 'cur'])
      chmodSync(join(this.dir, 'mail', MAIL_USER, `.${folder}`, sub), refuse ? 0o555 : 0o700);
  }

  /** UID, flags and Message-ID of each message in `mailbox` (an absent mailbox: none). */
  async messages(
    mailbox: string,
  ): Promise<{ uid: number; flags: string[]; messageId: string | undefined }[]> {
    return this.with(async (client) => {
      const listed = await client.list();
      if (!listed.some((entry) => entry.path === mailbox)) return [];
      const lock = await client.getMailboxLock(mailbox);
      try {
        const all = await client.fetchAll('1:*', { uid: true, flags: true, envelope: true });
        return all.map((message) => ({
          uid: message.uid,
          flags: [...(message.flags ?? [])],
          messageId: message.envelope?.messageId,
        }));
      } catch {
        return [];
      } finally {
        lock.release();
      }
    });
  }
}

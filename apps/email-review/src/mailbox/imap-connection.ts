import { readFile } from 'node:fs/promises';
import { ImapFlow } from 'imapflow';

/** How to reach the mailbox: IMAP_URL and its companions (see src/env.ts). */
export interface ImapSettings {
  url: string;
  xoauth2Token?: string;
  xoauth2TokenFile?: string;
  timeoutMs: number;
  /** MAIL_ALLOW_PLAINTEXT_AUTH: imap:// may log in unencrypted when the server offers no STARTTLS. */
  allowPlaintextAuth?: boolean;
}

/** The mailbox the URL's path names (INBOX when it names none). */
export function mailboxPath(url: string): string {
  const path = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  return path || 'INBOX';
}

/** Where the mailbox is, for logs: host and mailbox, never the credentials. */
export function mailboxLabel(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}/${mailboxPath(url)}`;
}

/**
 * A connected client. `imaps://` is TLS from the start; `imap://` upgrades with STARTTLS, and a
 * server that offers none is refused before the login (imapflow's `doSTARTTLS: true`) unless
 * plaintext auth is allowed. Auto-IDLE is off: the reader decides when to idle.
 */
export async function connectImap(settings: ImapSettings): Promise<ImapFlow> {
  const url = new URL(settings.url);
  const secure = url.protocol === 'imaps:';
  const user = decodeURIComponent(url.username);
  // The token file is read at each connection, so that whatever refreshes it is picked up.
  const token = settings.xoauth2TokenFile
    ? (await readFile(settings.xoauth2TokenFile, 'utf8')).trim()
    : settings.xoauth2Token;
  const client = new ImapFlow({
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 993 : 143,
    secure,
    // true: STARTTLS or nothing; undefined: STARTTLS when offered, else in clear.
    ...(!secure && !settings.allowPlaintextAuth ? { doSTARTTLS: true } : {}),
    auth: token ? { user, accessToken: token } : { user, pass: decodeURIComponent(url.password) },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: settings.timeoutMs,
    greetingTimeout: settings.timeoutMs,
    // IDLE is silent until mail comes: IMAP_POLL_MS (at most 4 min) breaks it well before this.
    socketTimeout: 5 * 60_000,
  });
  // An 'error' event without a listener would end the process; the reader watches 'close'.
  client.on('error', () => {});
  await client.connect().catch((error: unknown) => {
    if (!(error as { tlsFailed?: boolean }).tlsFailed) throw error;
    // Says what to do about it: imapflow says only that the server has no STARTTLS.
    throw new Error(
      `${(error as Error).message}: not logging in unencrypted (use imaps://, or set MAIL_ALLOW_PLAINTEXT_AUTH=true to allow it)`,
    );
  });
  return client;
}

/** Logs out politely, or drops the socket when the server is gone. */
export async function disconnectImap(client: ImapFlow): Promise<void> {
  if (!client.usable) return client.close();
  await client.logout().catch(() => client.close());
}

/** Runs `work` on a connection of its own, closed once it is done. */
export async function withImap<T>(
  settings: ImapSettings,
  work: (client: ImapFlow) => Promise<T>,
): Promise<T> {
  const client = await connectImap(settings);
  try {
    return await work(client);
  } finally {
    await disconnectImap(client);
  }
}

export const hasFolder = async (client: ImapFlow, folder: string) =>
  (await client.list()).some((entry) => entry.path === folder);

/** Creates `folder` unless it exists (a race with another creator is fine). */
export async function ensureFolder(client: ImapFlow, folder: string): Promise<void> {
  if (await hasFolder(client, folder)) return;
  await client.mailboxCreate(folder).catch(async (error: unknown) => {
    if (!(await hasFolder(client, folder))) throw error;
  });
}

import addressparser from 'nodemailer/lib/addressparser';
import { z } from 'zod';

/** Longest accepted mailbox (`Name <local@domain>`); an address alone is at most 254 (RFC 5321). */
export const MAILBOX_MAX_CHARS = 320;

/** The one address in `text` (display name allowed), or undefined when it is not exactly one. */
export function parseMailbox(text: string): { name: string; address: string } | undefined {
  const parsed = addressparser(text, { flatten: true });
  const only = parsed.length === 1 ? parsed[0] : undefined;
  if (!only || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(only.address)) return undefined;
  return { name: only.name, address: only.address };
}

/** `Name <address>`, the name quoted when it needs to be, or the address alone. */
export function formatMailbox(mailbox: { name?: string; address: string }): string {
  if (!mailbox.name) return mailbox.address;
  const name = /^[\p{L}\p{N} .'-]+$/u.test(mailbox.name)
    ? mailbox.name
    : `"${mailbox.name.replace(/["\\]/g, '\\$&')}"`;
  return `${name} <${mailbox.address}>`;
}

/** One mailbox, checked with nodemailer's address parser (the one that will send to it). */
export const mailboxSchema = z
  .string()
  .trim()
  .max(MAILBOX_MAX_CHARS)
  .refine((text) => parseMailbox(text) !== undefined, 'must be one email address')
  .transform((text) => formatMailbox(parseMailbox(text)!));

import { defineRoute, HttpError, type Route } from '@repo/http-kit';
import { quarantineListSchema, type QuarantineList } from '../mailbox/quarantine.js';

/** GET /mailbox/quarantine; `listQuarantine` is absent when no IMAP_URL is set. */
export function quarantineRoute(listQuarantine?: () => Promise<QuarantineList>): Route {
  return defineRoute({
    method: 'get',
    path: '/mailbox/quarantine',
    summary:
      'The messages the mailbox reader could not turn into threads (oversized, unreadable), as the quarantine folder holds them.',
    responses: {
      200: { description: 'The quarantine folder’s messages.', schema: quarantineListSchema },
      404: { description: 'No mailbox is configured (`mailbox_off`: IMAP_URL is unset).' },
      503: {
        description:
          'The IMAP server cannot be reached (`mailbox_unavailable`); try again after Retry-After.',
      },
    },
    handler: async ({ res }) => {
      if (!listQuarantine)
        throw new HttpError(404, 'mailbox_off', 'No mailbox is configured (IMAP_URL is unset).');
      res.json(await listQuarantine());
    },
  });
}

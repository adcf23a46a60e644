export const BILLING_EMAIL = `From: Ann Example <ann@example.com>
Subject: Charged twice

Hello, I was charged twice for invoice INV-2231 this month. Could you refund the duplicate payment?
Thanks, Ann`;

export const OUTAGE_EMAIL = `From: ops@example.org
Subject: API down

Your API has been returning 502 errors for an hour and our checkout is broken. This is urgent.`;

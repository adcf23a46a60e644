/** email-review's categories (apps/email-review/src/workflow/classification.ts), as its schema sends them. */
export const EMAIL_REVIEW_CATEGORIES = [
  'billing',
  'technical_support',
  'account',
  'sales',
  'complaint',
  'feedback',
  'spam',
  'other',
];

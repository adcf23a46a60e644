import type { Label } from './profile-schema.js';

/** The classifier's default categories, in order; without descriptions, as the default prompt expects. */
export const DEFAULT_CATEGORIES: readonly Label[] = [
  { name: 'billing' },
  { name: 'technical_support' },
  { name: 'account' },
  { name: 'sales' },
  { name: 'complaint' },
  { name: 'feedback' },
  { name: 'spam' },
  { name: 'other' },
];

export const DEFAULT_URGENCIES: readonly Label[] = [
  { name: 'low' },
  { name: 'normal' },
  { name: 'high' },
];

/** Answer in the language the customer wrote in. */
export const CUSTOMER_LANGUAGE = 'customer';

/** A support profile with every field resolved: what the prompts are rendered from. */
export interface SupportProfile {
  company_name: string | undefined;
  product_name: string | undefined;
  product_context: string | undefined;
  signature: string | undefined;
  tone: string | undefined;
  style_rules: readonly string[];
  reply_language: string;
  categories: readonly Label[];
  urgencies: readonly Label[];
}

/** The profile of a service started without one: the default prompts as written. */
export const DEFAULT_PROFILE: SupportProfile = {
  company_name: undefined,
  product_name: undefined,
  product_context: undefined,
  signature: undefined,
  tone: undefined,
  style_rules: [],
  reply_language: CUSTOMER_LANGUAGE,
  categories: DEFAULT_CATEGORIES,
  urgencies: DEFAULT_URGENCIES,
};

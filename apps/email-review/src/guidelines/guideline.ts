import { z } from 'zod';

/** Who a guideline applies to: one sender, a sender's domain, a category, or every draft. */
export const scopeKindSchema = z.enum(['sender', 'domain', 'category', 'global']);
export type ScopeKind = z.infer<typeof scopeKindSchema>;

export const GUIDELINE_MAX_CHARS = 300;

const guidelineScopeSchema = z.object({
  kind: scopeKindSchema,
  value: z
    .string()
    .nullable()
    .describe('The sender address, the domain or the category; null for `global`.'),
});
export type GuidelineScope = z.infer<typeof guidelineScopeSchema>;

/** One reviewer action a guideline was learned from (kept when retention deletes the thread). */
const guidelineSourceSchema = z.object({
  thread_id: z.string(),
  revision: z.number().int().describe('The revision the reviewer approved or redrafted.'),
  actor: z.string().describe('The reviewer.'),
  at: z.iso.datetime(),
  kind: z.enum(['edited', 'instructions']),
});
export type GuidelineSource = z.infer<typeof guidelineSourceSchema>;

export const guidelineSchema = z.object({
  id: z.string(),
  rule: z.string(),
  scope: guidelineScopeSchema,
  enabled: z.boolean().describe('Disabled guidelines are kept but given to no draft.'),
  sources: z.array(guidelineSourceSchema).describe('Provenance, oldest first.'),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type Guideline = z.infer<typeof guidelineSchema>;

/** What a draft records of a guideline it was given. */
export const usedGuidelineSchema = z.object({ id: z.string(), rule: z.string() });
export type UsedGuideline = z.infer<typeof usedGuidelineSchema>;

/** The scopes a draft to `from` about `category` falls under, most specific first. */
export function scopesFor(from: string | null, category: string | null): GuidelineScope[] {
  const address = addressOf(from);
  const domain = address?.split('@')[1];
  return [
    ...(address ? [{ kind: 'sender' as const, value: address }] : []),
    ...(domain ? [{ kind: 'domain' as const, value: domain }] : []),
    ...(category ? [{ kind: 'category' as const, value: category }] : []),
    { kind: 'global', value: null },
  ];
}

/** The bare, lower-case address of a From value (`Ann <ann@acme.test>` → `ann@acme.test`). */
export function addressOf(from: string | null): string | null {
  if (!from) return null;
  const match = /<([^<>\s]+@[^<>\s]+)>/.exec(from) ?? /([^<>\s]+@[^<>\s]+)/.exec(from);
  return match ? match[1]!.toLowerCase() : null;
}

export const scopeKey = (scope: GuidelineScope) => `${scope.kind}:${scope.value ?? ''}`;

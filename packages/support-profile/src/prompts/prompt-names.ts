/** The prompts a support team may replace, each by a file `<name>.md` in PROMPTS_DIR. */
export const PROMPT_NAMES = [
  'classify',
  'draft',
  'redraft',
  'coordinator',
  'billing',
  'technical',
  'escalation',
] as const;

export type PromptName = (typeof PROMPT_NAMES)[number];

/** Variables every prompt may use, rendered from the profile (see README.md for what each holds). */
export const PROFILE_VARIABLES = [
  'company_name',
  'product_name',
  'product_context',
  'team',
  'help_desk',
  'about',
  'tone',
  'tone_rule',
  'style_rules',
  'signature',
  'signature_rule',
  'reply_language',
  'language_rule',
] as const;

/** Variables only some prompts have: the classifier's labels, the reviewer's words on a redraft. */
export const PROMPT_OWN_VARIABLES = {
  classify: ['categories', 'urgencies', 'category_guide'],
  draft: [],
  redraft: ['instructions'],
  coordinator: [],
  billing: [],
  technical: [],
  escalation: [],
} as const satisfies Record<PromptName, readonly string[]>;

export function variablesOf(name: PromptName): readonly string[] {
  return [...PROFILE_VARIABLES, ...PROMPT_OWN_VARIABLES[name]];
}

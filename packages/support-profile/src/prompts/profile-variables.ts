import { CUSTOMER_LANGUAGE, type SupportProfile } from '../default-profile.js';
import type { Label } from '../profile-schema.js';
import type { PROFILE_VARIABLES } from './prompt-names.js';

type ProfileVariables = Record<(typeof PROFILE_VARIABLES)[number], string>;

/** The default prompts' wording, kept when the profile says nothing. */
const DEFAULT_TONE = 'courteous, concise';

/** "low, normal or high". */
function joinWithOr(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

const block = (lines: Array<string | false | undefined>) => {
  const text = lines.filter(Boolean).join('\n');
  return text ? `\n${text}` : '';
};

const withoutFullStop = (text: string) => text.replace(/[.]+$/, '');

/**
 * The variables every prompt may use. `…_rule`, `about` and `style_rules` are whole lines with their
 * own leading line break, empty when the profile leaves the field out, so the defaults read as written.
 */
export function profileVariables(profile: SupportProfile): ProfileVariables {
  const company = profile.company_name;
  const customerLanguage = profile.reply_language === CUSTOMER_LANGUAGE;
  return {
    company_name: company ?? '',
    product_name: profile.product_name ?? '',
    product_context: profile.product_context ?? '',
    team: company ? `the ${company} support team` : 'a support team',
    help_desk: company ? `the ${company} help desk` : 'a customer help desk',
    about: block([
      [profile.product_name && `The product is ${profile.product_name}.`, profile.product_context]
        .filter(Boolean)
        .join(' '),
    ]),
    tone: profile.tone ?? DEFAULT_TONE,
    tone_rule: block([profile.tone && `Tone: ${withoutFullStop(profile.tone)}.`]),
    style_rules: block(
      profile.style_rules.length > 0
        ? ['Style rules:', ...profile.style_rules.map((rule) => `- ${rule}`)]
        : [],
    ),
    signature: profile.signature ?? '',
    signature_rule: block(
      profile.signature
        ? ['End the reply with this signature, exactly as written:', profile.signature]
        : [],
    ),
    reply_language: customerLanguage ? "in the sender's language" : `in ${profile.reply_language}`,
    language_rule: block([
      !customerLanguage &&
        `Always answer in ${profile.reply_language}, whatever language the customer writes in.`,
    ]),
  };
}

function guide(title: string, labels: readonly Label[]): string[] {
  const described = labels.filter((label) => label.description);
  return described.length > 0
    ? [title, ...described.map((label) => `- ${label.name}: ${label.description}`)]
    : [];
}

/** The classifier's own variables: the names to choose from and, when the profile describes them, a guide. */
export function classifyVariables(profile: SupportProfile): Record<string, string> {
  return {
    categories: profile.categories.map((c) => c.name).join(', '),
    urgencies: joinWithOr(profile.urgencies.map((u) => u.name)),
    category_guide: block([
      ...guide('What the categories mean:', profile.categories),
      ...guide('What the urgencies mean:', profile.urgencies),
    ]),
  };
}

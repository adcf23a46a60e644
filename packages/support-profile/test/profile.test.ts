import { fileURLToPath } from 'node:url';
import { ConfigError } from '@repo/llm-config';
import {
  DEFAULT_PROFILE,
  loadSupportProfile,
  parseProfileEnv,
  type SupportProfile,
} from '../src/index.js';
import { ACME, ACME_YAML } from './fixtures/acme-profile.js';
import { tempDir } from './support/temp-dir.js';

const files = tempDir();

const load = (env: NodeJS.ProcessEnv): SupportProfile => loadSupportProfile(parseProfileEnv(env));

/** The one line a bad profile stops start-up with. */
function errorOf(env: NodeJS.ProcessEnv): string {
  try {
    load(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('the profile loaded');
}

const FIVE_CATEGORIES = `
categories:
  - name: orders
    description: Where an order is, changes to it, cancellations.
  - name: returns
    description: Returning an item and getting the money back.
  - name: product_questions
    description: Sizes, materials, availability.
  - name: wholesale
  - name: other
`;

describe('loading a profile', () => {
  test('when no profile file and no variable is set, then the profile is the default one', () => {
    expect(load({})).toEqual(DEFAULT_PROFILE);
  });

  test('when a YAML profile file is given, then its fields are the profile and the rest stays default', () => {
    const path = files.write('profile.yaml', ACME_YAML);
    expect(load({ SUPPORT_PROFILE_FILE: path })).toEqual(ACME);
  });

  test('when the profile file is JSON, then it is read the same way', () => {
    const path = files.write('profile.json', JSON.stringify({ company_name: 'Acme' }));
    expect(load({ SUPPORT_PROFILE_FILE: path }).company_name).toBe('Acme');
  });

  test('when PROFILE_* variables are set, then they win over the file', () => {
    const path = files.write('profile.yaml', 'company_name: Acme\ntone: warm\n');
    const profile = load({
      SUPPORT_PROFILE_FILE: path,
      PROFILE_COMPANY_NAME: 'Globex',
      PROFILE_PRODUCT_NAME: 'Globex Mail',
      PROFILE_SIGNATURE: 'Cheers,\\nGlobex support',
      PROFILE_REPLY_LANGUAGE: 'customer',
    });
    expect(profile).toMatchObject({
      company_name: 'Globex',
      product_name: 'Globex Mail',
      tone: 'warm',
      signature: 'Cheers,\nGlobex support',
      reply_language: 'customer',
    });
  });

  test('when a profile lists five categories of its own, then they replace the default ones, in order', () => {
    const path = files.write('profile.yaml', FIVE_CATEGORIES);
    expect(load({ SUPPORT_PROFILE_FILE: path }).categories).toEqual([
      { name: 'orders', description: 'Where an order is, changes to it, cancellations.' },
      { name: 'returns', description: 'Returning an item and getting the money back.' },
      { name: 'product_questions', description: 'Sizes, materials, availability.' },
      { name: 'wholesale' },
      { name: 'other' },
    ]);
  });
});

describe('a bad profile stops start-up with one line naming the field', () => {
  test.each([
    [
      'categories:\n  - name: orders\n  - name: returns\n  - name: Product Questions\n',
      'support profile: categories[2].name: expected a lowercase identifier (a-z, 0-9, _; at most 40)',
    ],
    [
      'categories:\n  - name: orders\n  - name: orders\n',
      'support profile: categories[1].name: "orders" is listed twice',
    ],
    ['categories:\n  - name: orders\n', 'support profile: categories: expected at least 2 entries'],
    ['colour: blue\n', 'support profile: colour: unknown field'],
    [
      'categories:\n  - name: orders\n    descripton: typo\n  - name: other\n',
      'support profile: categories[0].descripton: unknown field',
    ],
    ['style_rules: be nice\n', 'support profile: style_rules: expected a list of rules'],
    ['company_name: ""\n', 'support profile: company_name: expected text, not an empty value'],
    ['company_name: "Acme\\nInc"\n', 'support profile: company_name: expected a single line'],
    [
      'reply_language: "42"\n',
      'support profile: reply_language: expected "customer" or a language name',
    ],
    ['- company_name: Acme\n', 'support profile: PATH: expected a mapping of fields'],
  ])('when the file holds %j, then the error is %j', (yaml, expected) => {
    const path = files.write('profile.yaml', yaml);
    const message = errorOf({ SUPPORT_PROFILE_FILE: path });
    expect(message).toBe(expected.replace('PATH', path));
    expect(message).not.toContain('\n');
  });

  test('when the file is not YAML, then the error names the file and the line', () => {
    const path = files.write('profile.yaml', 'company_name: Acme\ncategories: [orders\n');
    const message = errorOf({ SUPPORT_PROFILE_FILE: path });
    expect(message).toMatch(new RegExp(`^support profile: ${path} line \\d+: `));
    expect(message).not.toContain('\n');
  });

  test('when the file does not exist, then the error names it and the variable', () => {
    const path = `${files.path()}/missing.yaml`;
    expect(errorOf({ SUPPORT_PROFILE_FILE: path })).toBe(
      `support profile: cannot read ${path} (SUPPORT_PROFILE_FILE): ENOENT`,
    );
  });

  test('when a bad value comes from a variable, then the error names the variable', () => {
    expect(errorOf({ PROFILE_REPLY_LANGUAGE: 'de_DE.UTF-8' })).toBe(
      'support profile: PROFILE_REPLY_LANGUAGE (reply_language): expected "customer" or a language name',
    );
  });
});

describe('the example profile', () => {
  test('when a service loads example-profile.yaml, then it is valid and its categories are its own', () => {
    const path = fileURLToPath(new URL('../example-profile.yaml', import.meta.url));
    const profile = load({ SUPPORT_PROFILE_FILE: path });
    expect(profile.company_name).toBe('Northwind Outfitters');
    expect(profile.categories.map((c) => c.name)).toEqual([
      'orders',
      'returns',
      'product_questions',
      'spam',
      'other',
    ]);
  });
});

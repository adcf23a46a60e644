import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '@repo/llm-config';
import type { SupportProfile } from '../default-profile.js';
import { DEFAULT_TEMPLATES } from './default-templates.js';
import { PROMPT_NAMES, variablesOf, type PromptName } from './prompt-names.js';
import { classifyVariables, profileVariables } from './profile-variables.js';
import { renderTemplate, variablesIn } from './template.js';

/**
 * Where the package's own templates are kept (prompts/*.md): the file to copy into PROMPTS_DIR. They are read from
 * DEFAULT_TEMPLATES, embedded at build, never from here at run time.
 */
export const DEFAULT_PROMPTS_DIR = fileURLToPath(new URL('../../prompts/', import.meta.url));

/** A template file's text without the line break that ends the file. */
function readTemplate(path: string): string {
  return readFileSync(path, 'utf8').replace(/\r?\n$/, '');
}

/** The override files in `dir`, by prompt; a `.md` file that names no prompt is a typo and stops start-up. */
function overrideFiles(dir: string): Map<PromptName, string> {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(`prompts: cannot read PROMPTS_DIR ${dir}: ${code}`);
  }
  const files = new Map<PromptName, string>();
  for (const entry of entries.filter((e) => e.endsWith('.md'))) {
    const name = entry.slice(0, -'.md'.length);
    if (!(PROMPT_NAMES as readonly string[]).includes(name))
      throw new ConfigError(
        `prompts: ${join(dir, entry)} replaces no prompt (the files are ${PROMPT_NAMES.map((n) => `${n}.md`).join(', ')})`,
      );
    files.set(name as PromptName, join(dir, entry));
  }
  return files;
}

/** The prompts a service uses, rendered from its profile. */
export interface SupportPrompts {
  readonly classify: string;
  readonly draft: string;
  /** The redraft request, with the reviewer's instructions put in. */
  redraft(instructions: string): string;
  readonly coordinator: string;
  readonly billing: string;
  readonly technical: string;
  readonly escalation: string;
  /** Where each prompt came from: the package's default file or the override. */
  readonly sources: Readonly<Record<PromptName, string>>;
}

/**
 * Reads every prompt once at start-up: the override in `promptsDir` when there is one, else the package's
 * default. A variable a template may not use stops start-up with a ConfigError naming the file and the variable.
 */
export function loadPrompts(profile: SupportProfile, promptsDir?: string): SupportPrompts {
  const overrides = promptsDir ? overrideFiles(promptsDir) : new Map<PromptName, string>();
  const values = { ...profileVariables(profile), ...classifyVariables(profile) };
  const sources = {} as Record<PromptName, string>;
  const templates = {} as Record<PromptName, string>;
  for (const name of PROMPT_NAMES) {
    const override = overrides.get(name);
    const path = override ?? join(DEFAULT_PROMPTS_DIR, `${name}.md`);
    const template = override ? readTemplate(override) : DEFAULT_TEMPLATES[name]!;
    const allowed = variablesOf(name);
    const unknown = variablesIn(template).find((v) => !allowed.includes(v));
    if (unknown !== undefined)
      throw new ConfigError(
        `prompts: ${path}: unknown variable {{${unknown}}} (${name}.md may use ${allowed.join(', ')})`,
      );
    sources[name] = path;
    templates[name] = template;
  }
  // One pass over the template per text: a value holding "{{…}}" is never read as a variable.
  const render = (name: PromptName, call: Record<string, string> = {}) =>
    renderTemplate(templates[name], { ...values, ...call });
  return {
    classify: render('classify'),
    draft: render('draft'),
    redraft: (instructions) => render('redraft', { instructions }),
    coordinator: render('coordinator'),
    billing: render('billing'),
    technical: render('technical'),
    escalation: render('escalation'),
    sources,
  };
}

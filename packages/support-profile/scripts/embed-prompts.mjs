// Writes src/prompts/default-templates.ts from prompts/*.md, so the default prompts travel inside the code: a
// bundler (ADK's `adk api_server` bundles the helpdesk's agent file into a temporary folder) keeps them, while a
// path beside the package's files would point into that folder. Run by `build`; a test checks it is current.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';

const dir = new URL('../prompts/', import.meta.url);
const names = readdirSync(dir)
  .filter((f) => f.endsWith('.md'))
  .map((f) => f.slice(0, -'.md'.length))
  .sort();
const entries = names.map((name) => {
  const text = readFileSync(new URL(`${name}.md`, dir), 'utf8').replace(/\r?\n$/, '');
  return `  ${name}: ${JSON.stringify(text)},`;
});
writeFileSync(
  new URL('../src/prompts/default-templates.ts', import.meta.url),
  `// Generated from prompts/*.md by scripts/embed-prompts.mjs (run by build): edit the .md files, not this.\n` +
    `export const DEFAULT_TEMPLATES: Readonly<Record<string, string>> = {\n${entries.join('\n')}\n};\n`,
);

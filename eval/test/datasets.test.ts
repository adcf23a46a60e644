import { DEFAULT_CATEGORIES } from '@repo/support-profile';
import { loadChatCases, loadEmailCases } from '../src/datasets/load-datasets.js';
import { readKnowledgeBase } from '../src/metrics/knowledge-base.js';
import { paths } from '../src/paths.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from './support/scratch.js';

describe('datasets', () => {
  const emails = loadEmailCases(paths.emailDataset);
  const chats = loadChatCases(paths.chatDataset);
  const kb = readKnowledgeBase(paths.sampleHelpCenter);

  it('when loaded, then they hold at least 40 email and 30 chat cases', () => {
    expect(emails.length).toBeGreaterThanOrEqual(40);
    expect(chats.length).toBeGreaterThanOrEqual(30);
  });

  it('when a case names a category or an article, then it is one the default profile and the sample help center have', () => {
    const categories = DEFAULT_CATEGORIES.map((c: { name: string }) => c.name);
    for (const c of emails) expect(categories).toContain(c.expected.category);
    const slugs = [
      ...emails.flatMap((c) => c.expected.kb_cites),
      ...chats.flatMap((c) => c.conversation.flatMap((t) => t.kb_cites)),
    ];
    expect(slugs.length).toBeGreaterThan(20);
    for (const slug of slugs) expect([...kb.keys()]).toContain(slug);
  });

  it('when a line is invalid, then the error names the file, the line and the field', () => {
    const file = join(scratchDir('eval-'), 'email.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ id: 'a', about: 'x', email: { inbound: 'hi' }, expected: { category: 'billing', language: 'english' } })}\n`,
    );
    expect(() => loadEmailCases(file)).toThrow(/email\.jsonl:1: expected\.language/);
  });
});

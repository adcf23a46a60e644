import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import {
  INSTALL_TEST_SERVERS,
  missingServerMessage,
  requireInstalled,
} from '@repo/jest-preset/test-servers.mjs';
import { readRepoFile, repoRoot } from './support/repo.js';

const SCRIPT = 'scripts/install-test-servers.sh';
const readme = readRepoFile('README.md');
const ciRun = readRepoFile('.ci/run');
const script = readRepoFile(SCRIPT);

/** The shell block of the README's "Test it" section, line by line. */
function testItLines(): string[] {
  const section = readme.slice(readme.indexOf('## Test it'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block.trim().split('\n');
}

describe('preparing a machine for the tests', () => {
  test('when the README is read, then its "Test it" block prepares the machine with the script, then runs the test line', () => {
    expect(testItLines()).toEqual([
      INSTALL_TEST_SERVERS,
      'npx -y pnpm@10.34.8 install --frozen-lockfile && npx -y pnpm@10.34.8 test',
    ]);
    expect(INSTALL_TEST_SERVERS).toBe(`sudo bash ${SCRIPT}`);
  });

  test('when .ci/run is read, then it prepares the machine with the same script and installs nothing itself', () => {
    expect(ciRun).toContain(`bash ${SCRIPT}`);
    expect(ciRun).not.toMatch(/apt-get|pg_ctlcluster|CREATE DATABASE/);
    expect(ciRun).toContain(testItLines()[1]);
  });

  test('when the script is read, then it is valid bash and installs the servers every test needs: PostgreSQL and its database test, Chromium, Dovecot', () => {
    execFileSync('bash', ['-n', join(repoRoot, SCRIPT)]);
    expect(script).toMatch(/^set -euo pipefail$/m);
    expect(script).toMatch(/apt_install postgresql\b/);
    expect(script).toMatch(/apt_install chromium\b/);
    expect(script).toMatch(/apt_install dovecot-imapd\b/);
    expect(script).toContain('CREATE DATABASE test');
    for (const path of ['/usr/bin/chromium', '/usr/sbin/dovecot']) expect(script).toContain(path);
  });

  test('when a server a test starts is missing, then it fails with one sentence naming the install line', () => {
    const missing = '/nonexistent/dovecot';

    expect(() => requireInstalled('Dovecot', missing)).toThrow(
      missingServerMessage('Dovecot', missing),
    );
    const message = missingServerMessage('Dovecot', missing);
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain(INSTALL_TEST_SERVERS);
    expect(() => requireInstalled('Node.js', process.execPath)).not.toThrow();
  });
});

import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { INSTALL_TEST_SERVERS } from '@repo/jest-preset/test-servers.mjs';
import { Dovecot } from './support/dovecot.js';

const dovecotDirs = () => readdirSync(tmpdir()).filter((name) => name.startsWith('dovecot-'));

describe('the mailbox tests on a machine without Dovecot', () => {
  test('when Dovecot is missing, then starting it fails with one sentence naming the install line, and leaves nothing behind', async () => {
    const before = dovecotDirs();

    const starting = Dovecot.start({ binary: '/nonexistent/sbin/dovecot' });

    await expect(starting).rejects.toThrow(
      `Dovecot is not installed (no /nonexistent/sbin/dovecot): prepare this machine for the tests with \`${INSTALL_TEST_SERVERS}\``,
    );
    expect(dovecotDirs().filter((name) => !before.includes(name))).toEqual([]);
  });
});

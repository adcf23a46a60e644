// The servers and the browser the tests start themselves (Dovecot, Chromium): a missing one fails its tests with
// one sentence naming the line that installs it, not a spawn error (ENOENT) deep in a stack trace.
import { existsSync } from 'node:fs';

/** The README's one line that prepares a Debian or Ubuntu machine for the tests (.ci/run runs the same script). */
export const INSTALL_TEST_SERVERS = 'sudo bash scripts/install-test-servers.sh';

/** The sentence a test fails with when `what` is not at `path`. */
export const missingServerMessage = (what, path) =>
  `${what} is not installed (no ${path}): prepare this machine for the tests with \`${INSTALL_TEST_SERVERS}\` from the repository root (see the README's "Test it").`;

/** Throws `missingServerMessage` unless `path` exists. */
export function requireInstalled(what, path) {
  if (!existsSync(path)) throw new Error(missingServerMessage(what, path));
}

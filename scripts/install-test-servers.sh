#!/usr/bin/env bash
# Prepares a Debian or Ubuntu machine for the tests (the README's "Test it"; .ci/run runs it too):
#   sudo bash scripts/install-test-servers.sh
# - PostgreSQL, reachable as postgres://postgres@127.0.0.1:5432/test: trust auth for local and 127.0.0.1
#   connections (a test machine's setting: any local user may connect as any role), the database `test`;
# - Chromium at /usr/bin/chromium (the browser tests): Debian's package; on Ubuntu, whose package is a snap
#   that containers cannot run, Playwright's build of Chromium with the libraries it needs, linked there;
# - Dovecot at /usr/sbin/dovecot (the mailbox tests start their own, as a child process).
# Installs only what is missing, so a second run (every CI run) takes a second or two.
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
  echo "install-test-servers: run it as root: sudo bash $0" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# The version the apps' browser tests drive (Ubuntu only).
PLAYWRIGHT_VERSION=1.65.1

distribution() {
  # shellcheck disable=SC1091
  (. /etc/os-release && echo "${ID:-}")
}

apt_updated=no
apt_install() {
  if [ "$apt_updated" = no ]; then
    apt-get update -qq
    apt_updated=yes
  fi
  echo "install-test-servers: installing $*" >&2
  apt-get install -y -qq "$@" >/dev/null
}

install_chromium() {
  if [ -x /usr/bin/chromium ]; then return 0; fi
  if [ "$(distribution)" != ubuntu ]; then
    apt_install chromium
    return 0
  fi
  command -v npx >/dev/null || { echo "install-test-servers: Node.js (npx) is needed for Chromium on Ubuntu" >&2; exit 1; }
  export PLAYWRIGHT_BROWSERS_PATH=/opt/ms-playwright
  npx -y "playwright-core@${PLAYWRIGHT_VERSION}" install --with-deps --no-shell chromium
  local chrome
  chrome=$(find /opt/ms-playwright -path '*/chromium-*/chrome-linux*/chrome' -type f | head -1)
  [ -n "$chrome" ] || { echo "install-test-servers: Playwright installed no Chromium under /opt/ms-playwright" >&2; exit 1; }
  chmod -R a+rX /opt/ms-playwright
  ln -sf "$chrome" /usr/bin/chromium
}

postgres_answers() {
  # -w: never prompt; fails when a password would be asked for (no trust auth yet).
  psql -h 127.0.0.1 -U postgres -w -d postgres -tAc 'SELECT 1' >/dev/null 2>&1
}

start_postgres() {
  local version
  version=$(ls /etc/postgresql | sort -V | tail -1)
  # Trust for the superuser's local and loopback connections, as the tests connect (no password).
  sed -i -E 's/^(local\s+all\s+all\s+).*/\1trust/; s/^(local\s+all\s+postgres\s+).*/\1trust/; s/^(host\s+all\s+all\s+127\.0\.0\.1\/32\s+).*/\1trust/; s/^(host\s+all\s+all\s+::1\/128\s+).*/\1trust/' \
    "/etc/postgresql/${version}/main/pg_hba.conf"
  # Without systemd (containers, CI) nothing has started the cluster: start it; with it, reload the new auth.
  pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>/dev/null \
    || pg_ctlcluster --skip-systemctl-redirect "$version" main reload
  for _ in $(seq 1 30); do
    if postgres_answers; then return 0; fi
    sleep 1
  done
  echo "install-test-servers: PostgreSQL ${version} did not answer on 127.0.0.1:5432 within 30 s" >&2
  exit 1
}

ensure_postgres() {
  if ! ls /etc/postgresql/*/main/pg_hba.conf >/dev/null 2>&1; then apt_install postgresql; fi
  if ! postgres_answers; then start_postgres; fi
  if [ "$(psql -h 127.0.0.1 -U postgres -w -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'test'")" != 1 ]; then
    psql -h 127.0.0.1 -U postgres -w -d postgres -qc 'CREATE DATABASE test'
  fi
}

ensure_postgres
install_chromium
if [ ! -x /usr/sbin/dovecot ]; then apt_install dovecot-imapd; fi
echo "install-test-servers: PostgreSQL (postgres://postgres@127.0.0.1:5432/test), /usr/bin/chromium and /usr/sbin/dovecot are ready" >&2

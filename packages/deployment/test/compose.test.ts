import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { appEnv, emulatorEnv } from './support/app-env.js';
import {
  interpolate,
  interpolateDocument,
  InterpolationError,
  readDotEnv,
} from './support/compose-interpolation.js';
import { IMAGES } from './support/images.js';
import { readRepoFile, repoRoot } from './support/repo.js';

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; target?: string; args?: Record<string, string> };
  profiles?: string[];
  ports?: string[];
  environment?: Record<string, string>;
  entrypoint?: string[];
  command?: string[];
  depends_on?: Record<string, { condition: string; required?: boolean }>;
  healthcheck?: { test: string[] };
  restart?: string;
  volumes?: string[];
}

interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const composeText = readRepoFile('docker-compose.yml');
const compose = parse(composeText) as ComposeFile;
const service = (name: string): ComposeService => {
  const found = compose.services[name];
  if (!found) throw new Error(`no service ${name} in docker-compose.yml`);
  return found;
};

/** The environment Compose sees after `cp .env.example .env`, with nothing exported in the shell. */
const exampleEnv = readDotEnv(readRepoFile('.env.example'));
/** A value as Compose resolves it after `cp .env.example .env`. */
const withExampleEnv = (value: string) => interpolate(value, exampleEnv);

/** "HOST:CONTAINER" → CONTAINER. */
const containerPort = (mapping: string) => Number(withExampleEnv(mapping).split(':').at(-1));

const APPS = ['email-review', 'helpdesk'] as const;
/** Left to the image's defaults on purpose: inside a container the service listens on all interfaces. */
const NOT_IN_COMPOSE = new Set(['HOST']);

describe('docker-compose.yml', () => {
  test('when parsed, then it defines postgres, both apps and the emulator, the emulator only under the offline profile', () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      'email-review',
      'helpdesk',
      'llm-emulator',
      'mailbox',
      'mailpit',
      'postgres',
    ]);
    expect(service('llm-emulator').profiles).toEqual(['offline']);
    expect(service('mailpit').profiles).toEqual(['offline']);
    expect(service('mailbox').profiles).toEqual(['offline']);
    for (const name of ['postgres', ...APPS]) expect(service(name).profiles).toBeUndefined();
  });

  test('when postgres is read, then it is the official image at a pinned major version, on a named volume, checked with pg_isready', () => {
    const postgres = service('postgres');
    expect(postgres.image).toMatch(/^postgres:\d+(\.\d+)?(-[a-z0-9]+)?$/);
    const volume = postgres.volumes?.[0]?.split(':')[0] ?? '';
    expect(Object.keys(compose.volumes ?? {})).toContain(volume);
    expect(postgres.healthcheck?.test.join(' ')).toMatch(/pg_isready/);
  });

  test('when email-review is read, then its DATABASE_URL names the postgres service and it waits for postgres to be healthy', () => {
    const emailReview = service('email-review');
    const url = new URL(withExampleEnv(emailReview.environment?.DATABASE_URL ?? ''));
    expect(url.protocol).toBe('postgres:');
    expect(url.hostname).toBe('postgres');
    expect(compose.services[url.hostname]).toBeDefined();
    expect(emailReview.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
  });

  test.each(Object.keys(compose.services))(
    'when %s is read, then it has a healthcheck and restarts unless stopped',
    (name) => {
      expect(service(name).healthcheck?.test.length).toBeGreaterThan(1);
      expect(service(name).restart).toBe('unless-stopped');
    },
  );

  test.each(APPS)(
    'when %s is read, then its container port, PORT and healthcheck agree with the port the app defaults to, and the healthcheck asks /readyz',
    (app) => {
      const { defaultPort } = appEnv(app);
      const spec = service(app);
      expect(spec.ports?.map(containerPort)).toEqual([defaultPort]);
      expect(Number(spec.environment?.PORT)).toBe(defaultPort);
      // Healthy means serving: depends_on service_healthy must not let traffic in while /readyz is 503.
      expect(spec.healthcheck?.test.join(' ')).toContain(
        `'http://127.0.0.1:${defaultPort}/readyz'`,
      );
    },
  );

  test.each(APPS)(
    'when %s is read, then its environment names exactly the variables the app reads',
    (app) => {
      const { names } = appEnv(app);
      // A sanity check of the extraction itself: it must see the variables every app has.
      expect([...names]).toEqual(expect.arrayContaining(['PORT', 'API_TOKEN', 'LOG_LEVEL']));
      const expected = [...names].filter((name) => !NOT_IN_COMPOSE.has(name)).sort();
      expect(Object.keys(service(app).environment ?? {}).sort()).toEqual(expected);
    },
  );

  test.each(APPS)(
    'when the offline profile runs, then %s loads the sample help center the image holds',
    (app) => {
      const script = service(app).entrypoint?.join('\n') ?? '';
      const dir = /export KB_DIR="\$\$\{KB_DIR:-([^}"]+)\}"/.exec(script)?.[1];
      // The image holds what `pnpm deploy` copies of @repo/knowledge: the files its package.json lists.
      expect(dir).toBe('/app/node_modules/@repo/knowledge/sample-help-center');
      const knowledge = JSON.parse(readRepoFile('packages/knowledge/package.json')) as {
        files: string[];
      };
      expect(knowledge.files).toContain('sample-help-center');
      expect(
        existsSync(join(repoRoot, 'packages/knowledge/sample-help-center/shipping-times.md')),
      ).toBe(true);
    },
  );

  test.each([
    ['email-review', 'LLM_A_API_KEY', 'LLM_A_BASE_URL', '/v1'],
    ['helpdesk', 'AGENT_LLM_API_KEY', 'AGENT_LLM_BASE_URL', ''],
  ] as const)(
    'when the offline profile runs, then %s waits for the emulator and its entrypoint points %s and %s at it',
    (app, keyName, baseUrlName, path) => {
      const { names } = appEnv(app);
      expect(names.has(keyName) && names.has(baseUrlName)).toBe(true);
      const spec = service(app);
      expect(spec.depends_on?.['llm-emulator']).toEqual({
        condition: 'service_healthy',
        required: false,
      });
      const emulatorPort = containerPort(service('llm-emulator').ports?.[0] ?? '');
      const script = spec.entrypoint?.join('\n') ?? '';
      expect(script).toContain('getent hosts llm-emulator');
      expect(script).toMatch(new RegExp(`export [^\\n]*${keyName}=\\S+`));
      expect(script).toContain(`${baseUrlName}=http://llm-emulator:${emulatorPort}${path}\n`);
      // `$$` is Compose's escape for a literal `$`, so the shell (not Compose) expands the command's arguments.
      expect(script).toContain('exec "$$@"');
      expect(spec.command).toEqual(['node', 'dist/server.js']);
    },
  );

  test('when the offline profile runs, then email-review delivers to mailpit, a pinned image with a web page', () => {
    const mailpit = service('mailpit');
    expect(mailpit.image).toMatch(/^axllent\/mailpit:v\d+\.\d+\.\d+$/);
    expect(mailpit.ports?.map(containerPort)).toEqual([8025]);
    const emailReview = service('email-review');
    expect(emailReview.depends_on?.mailpit).toEqual({
      condition: 'service_healthy',
      required: false,
    });
    const script = emailReview.entrypoint?.join('\n') ?? '';
    expect(script).toContain('getent hosts mailpit');
    expect(script).toMatch(
      /export SMTP_URL=smtp:\/\/mailpit:1025 MAIL_FROM="\$\$\{MAIL_FROM:-[^}]+\}"/,
    );
  });

  test('when the offline profile runs, then email-review reads the mailbox service, a pinned GreenMail with IMAP and SMTP, as a user it defines', () => {
    const mailbox = service('mailbox');
    expect(mailbox.image).toMatch(/^greenmail\/standalone:\d+\.\d+\.\d+$/);
    expect(mailbox.ports?.map(containerPort).sort()).toEqual([3025, 3143]);
    const options = mailbox.environment?.GREENMAIL_OPTS ?? '';
    expect(options).toContain('-Dgreenmail.setup.test.all');
    expect(options).toContain('-Dgreenmail.hostname=0.0.0.0');
    expect(options).not.toContain('auth.disabled');
    const user = /-Dgreenmail\.users=(\w+):(\S+)@(\S+)/.exec(options);
    expect(user).not.toBeNull();
    expect(options).toContain('-Dgreenmail.users.login=local_part');

    const emailReview = service('email-review');
    expect(emailReview.depends_on?.mailbox).toEqual({
      condition: 'service_healthy',
      required: false,
    });
    const script = emailReview.entrypoint?.join('\n') ?? '';
    expect(script).toContain('getent hosts mailbox');
    const imapUrl = /export IMAP_URL=(\S+)/.exec(script)?.[1] ?? '';
    const url = new URL(imapUrl);
    expect(url.protocol).toBe('imap:');
    expect(`${url.username}:${url.password}`).toBe(`${user![1]}:${user![2]}`);
    expect(`${url.hostname}:${url.port}`).toBe('mailbox:3143');
    expect(url.pathname).toBe('/INBOX');
    // GreenMail has no \Sent special-use folder: the replies are filed in a named one.
    expect(script).toMatch(/IMAP_SENT_FOLDER="\$\$\{IMAP_SENT_FOLDER:-Sent\}"/);
    // Its IMAP port has no STARTTLS: without the opt-out, email-review would refuse to log in.
    const mailboxBranch = script.slice(script.indexOf('getent hosts mailbox'));
    expect(mailboxBranch.slice(0, mailboxBranch.indexOf('\nfi'))).toContain(
      'export MAIL_ALLOW_PLAINTEXT_AUTH=true',
    );
  });

  test('when the emulator service is read, then it sets only variables the emulator reads, listening on all interfaces', () => {
    const emulator = service('llm-emulator');
    const { names, defaultPort } = emulatorEnv();
    expect(names.has('EMULATOR_HOST')).toBe(true);
    for (const name of Object.keys(emulator.environment ?? {})) expect(names).toContain(name);
    expect(emulator.environment?.EMULATOR_HOST).toBe('0.0.0.0');
    expect(Number(emulator.environment?.EMULATOR_PORT)).toBe(
      containerPort(emulator.ports?.[0] ?? ''),
    );
    expect(containerPort(emulator.ports?.[0] ?? '')).toBe(defaultPort);
  });

  test('when a service is built, then its Dockerfile exists and the context is the repository root', () => {
    for (const name of [...APPS, 'llm-emulator']) {
      const build = service(name).build;
      expect(build?.context).toBe('.');
      expect(existsSync(join(repoRoot, build?.dockerfile ?? 'missing'))).toBe(true);
    }
  });

  test.each(IMAGES)(
    'when $service is built, then the root Dockerfile gets APP=$name, target $target and the port the package listens on',
    ({ service: name, name: app, target, port }) => {
      const build = service(name).build;
      expect(build?.dockerfile).toBe('Dockerfile');
      expect(build?.target).toBe(target);
      expect(build?.args?.APP).toBe(app);
      // Only the app stage reads PORT; the emulator's port is its own variable, set in its stage.
      if (target === 'app') expect(Number(build?.args?.PORT)).toBe(port);
      else expect(build?.args?.PORT).toBeUndefined();
      expect(readRepoFile('Dockerfile')).toMatch(new RegExp(`^FROM \\S+ AS ${target}$`, 'm'));
    },
  );
});

describe('docker compose after `cp .env.example .env`', () => {
  const effective = interpolateDocument(compose, exampleEnv);
  const environmentOf = (name: string) => effective.services[name]?.environment ?? {};

  test.each(APPS)(
    "when %s's effective environment is read, then its DATABASE_URL is the compose file's postgres service",
    (app) => {
      const url = new URL(environmentOf(app).DATABASE_URL ?? '');
      expect(url.protocol).toBe('postgres:');
      expect(`${url.username}:${url.password}@${url.host}${url.pathname}`).toBe(
        'postgres:postgres@postgres:5432/email_review',
      );
    },
  );

  test("when helpdesk's effective environment is read, then its sessions live in the helpdesk schema", () => {
    expect(environmentOf('helpdesk').DATABASE_SCHEMA).toBe('helpdesk');
  });

  test('when every value of the compose file is resolved with the example, then none is an error', () => {
    expect(() => interpolateDocument(compose, exampleEnv)).not.toThrow();
  });
});

describe("Compose's interpolation, as the tests read it", () => {
  const env = new Map([
    ['EMPTY', ''],
    ['SET', 'value'],
  ]);

  test.each([
    ['${EMPTY:-d}', 'd'],
    ['${EMPTY-d}', ''],
    ['${UNSET-d}', 'd'],
    ['${UNSET:-d}', 'd'],
    ['${SET-d}', 'value'],
    ['${SET:+x}', 'x'],
    ['${EMPTY:+x}', ''],
    ['${EMPTY+x}', 'x'],
    ['$SET and ${UNSET}', 'value and '],
    ['${UNSET-a${EMPTY:-b}c}', 'abc'],
    ['$${SET}', '${SET}'],
  ])('when %s is resolved with EMPTY= and SET=value, then it reads %p', (template, expected) => {
    expect(interpolate(template, env)).toBe(expected);
  });

  test('when a required variable is empty, then resolving it fails with its message', () => {
    expect(() => interpolate('${EMPTY:?needed}', env)).toThrow(InterpolationError);
    expect(interpolate('${EMPTY?needed}', env)).toBe('');
  });

  test('when a .env file is read, then `KEY=` sets KEY to the empty string and comments are skipped', () => {
    const read = readDotEnv('# A=1\nA=\nB="two words"\nC=3 # note\n');
    expect([...read.entries()]).toEqual([
      ['A', ''],
      ['B', 'two words'],
      ['C', '3'],
    ]);
  });
});

describe('.env.example', () => {
  const example = readRepoFile('.env.example');
  const lines = example.split('\n');
  const documented = new Map<string, number>();
  lines.forEach((line, index) => {
    const match = /^([A-Z][A-Z0-9_]*)=/.exec(line);
    if (match) documented.set(match[1]!, index);
  });

  test('when read, then every variable the compose file and the apps use is listed', () => {
    const fromCompose = [...composeText.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map(
      (match) => match[1]!,
    );
    const fromApps = APPS.flatMap((app) => [...appEnv(app).names]);
    for (const name of new Set([...fromCompose, ...fromApps]))
      expect([...documented.keys()]).toContain(name);
  });

  test('when read, then each variable has a comment above it and no value that looks like a secret', () => {
    for (const [name, index] of documented) {
      let above = index - 1;
      while (above >= 0 && /^[A-Z][A-Z0-9_]*=/.test(lines[above]!)) above -= 1;
      expect([name, lines[above]?.startsWith('#')]).toEqual([name, true]);
      expect([name, lines[index]]).toEqual([name, `${name}=`]);
    }
  });
});

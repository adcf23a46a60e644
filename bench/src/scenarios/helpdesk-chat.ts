import { AdkChatDriver } from '../drivers/adk-chat-driver.js';
import { MESSAGES_PER_CHAT, type ChatDriver } from '../drivers/chat-driver.js';
import { HelpdeskDriver } from '../drivers/helpdesk-driver.js';
import { runLoad } from '../load/run-load.js';
import type { Section, TargetCheck } from '../report/report-model.js';
import { summarize } from '../stats/percentiles.js';
import { startAdkApiServer } from '../systems/adk-api-server.js';
import { startHelpdesk } from '../systems/helpdesk-service.js';
import { profileService } from './profile-service.js';
import type { ScenarioContext } from './scenario-context.js';
import {
  chatIteration,
  LOAD_MODES,
  measureSideBySide,
  ratio,
  type MeasuredRun,
} from './workloads.js';

const SYSTEMS = ['project', 'peer'] as const;
type SystemKey = (typeof SYSTEMS)[number];
const MODES = LOAD_MODES;

/** Scenario 2: chats of 5 messages against the helpdesk service and the same agent tree in `adk api_server`. */
export async function helpdeskChatScenario(ctx: ScenarioContext): Promise<Section> {
  const { config, emulator } = ctx;
  await emulator.setLatency(0);
  const project = await ctx.shared('helpdesk', () => startHelpdesk({ emulatorUrl: emulator.url }));
  const peer = await ctx.shared('adk', () => startAdkApiServer({ emulatorUrl: emulator.url }));
  const systems = { project, peer };
  const drivers: Record<SystemKey, ChatDriver> = {
    project: new HelpdeskDriver(project.url, 64),
    peer: new AdkChatDriver(peer.url, 64, peer.appName),
  };
  let results: Map<string, MeasuredRun>;
  try {
    results = await measureSideBySide({
      label: 'scenario 2',
      unit: 'chats',
      systems,
      keys: SYSTEMS,
      counts: config.chat,
      warmup: config.warmup,
      maxRunMs: config.maxRunMs,
      iteration: (key, tag) => chatIteration(drivers[key], tag),
      tag: `${ctx.runTag}-s2`,
      log: (line) => ctx.log(line),
    });
  } finally {
    for (const driver of Object.values(drivers)) driver.close();
  }
  await ctx.cleanup();

  const get = (mode: string, key: SystemKey) => results.get(`${mode}/${key}`) as MeasuredRun;
  const cpu = (mode: string, key: SystemKey) => get(mode, key).cpuMsPerIteration;
  const rate = (mode: string, key: SystemKey) => get(mode, key).perSecond;
  const sessionCreate = MODES.map(
    (m) => `${m.label} ${summarize(get(m.key, 'peer').steps.of('session')).p50.toFixed(1)} ms`,
  ).join(', ');
  const section: Section = {
    id: 2,
    title: `Helpdesk chat (sessions of ${MESSAGES_PER_CHAT} messages: billing, technical, escalation, billing, technical), emulator latency 0`,
    commands: [project.process.commandLine, peer.process.commandLine],
    tables: [
      {
        title: 'Chats per second',
        columns: ['', 'project', 'adk api_server', 'project ÷ peer (×)'],
        rows: MODES.map((m) => [
          m.label,
          rate(m.key, 'project'),
          rate(m.key, 'peer'),
          ratio(rate(m.key, 'project'), rate(m.key, 'peer')),
        ]),
      },
      {
        title: 'Latency, ms (p50 / p99): one message (POST /chat vs POST /run), and a whole chat',
        columns: [
          '',
          'project p50',
          'project p99',
          'peer p50',
          'peer p99',
          'peer ÷ project p50 (×)',
        ],
        rows: MODES.flatMap((m) => {
          const msg = (key: SystemKey) => summarize(get(m.key, key).steps.of('message'));
          const chat = (key: SystemKey) => summarize(get(m.key, key).iterations);
          return [
            [
              `${m.label} · message`,
              msg('project').p50,
              msg('project').p99,
              msg('peer').p50,
              msg('peer').p99,
              ratio(msg('peer').p50, msg('project').p50),
            ],
            [
              `${m.label} · chat`,
              chat('project').p50,
              chat('project').p99,
              chat('peer').p50,
              chat('peer').p99,
              ratio(chat('peer').p50, chat('project').p50),
            ],
          ];
        }),
      },
      {
        title:
          'CPU time the system used per chat, ms (all its processes; less noisy than rates on a shared machine)',
        columns: ['', 'project', 'adk api_server', 'peer ÷ project (×)'],
        rows: MODES.map((m) => [
          m.label,
          cpu(m.key, 'project'),
          cpu(m.key, 'peer'),
          ratio(cpu(m.key, 'peer'), cpu(m.key, 'project')),
        ]),
      },
      {
        title: 'Chats measured (completed / failed)',
        decimals: 0,
        columns: ['', 'project done', 'project failed', 'peer done', 'peer failed'],
        rows: MODES.map((m) => [
          m.label,
          ...SYSTEMS.flatMap((k) => [get(m.key, k).completed, get(m.key, k).failed]),
        ]),
      },
    ],
    notes: [
      `The peer's chat also includes its session create (POST /apps/{app}/users/{user}/sessions; p50 ${sessionCreate}); the project creates the session with the first message.`,
      `The project serializes turns per session and validates every request; adk api_server does neither. Each run stops after ${config.maxRunMs / 1000} s.`,
    ],
    targets: [],
  };

  const c8 = ratio(rate('concurrent8', 'project'), rate('concurrent8', 'peer'));
  const target: TargetCheck = {
    target: "≥ 1.3× adk api_server's chats/s at concurrency 8",
    measured: `${c8.toFixed(2)}×`,
    met: c8 >= 1.3,
    ...(c8 >= 1.3
      ? {}
      : { shortfall: `${(1.3 - c8).toFixed(2)}× (${(100 * (1 - c8 / 1.3)).toFixed(0)} %)` }),
  };
  if (!target.met && ctx.takeProfileSlot()) {
    target.profileWorkload = `${config.profileIterations} chats at concurrency 8`;
    target.profile = await profileHelpdesk(ctx);
  }
  section.targets = [target];
  return section;
}

/** Where the project's helpdesk spends its CPU over a fixed number of chats at concurrency 8. */
export async function profileHelpdesk(
  ctx: ScenarioContext,
  iterations = ctx.config.profileIterations,
  concurrency = 8,
) {
  const summary = await profileService(
    ctx,
    (nodeFlags) => startHelpdesk({ emulatorUrl: ctx.emulator.url, nodeFlags }),
    async (system, warm) => {
      const driver = new HelpdeskDriver(system.url, 16);
      try {
        const total = warm ? Math.max(8, Math.ceil(iterations / 10)) : iterations;
        await runLoad(
          { total, concurrency },
          chatIteration(driver, `${ctx.runTag}-prof-chat-${warm ? 'w' : 'm'}`),
        );
      } finally {
        driver.close();
      }
    },
  );
  await ctx.cleanup();
  return summary;
}

import { AdkChatDriver } from '../drivers/adk-chat-driver.js';
import { MESSAGES_PER_CHAT, type ChatDriver } from '../drivers/chat-driver.js';
import { HelpdeskDriver } from '../drivers/helpdesk-driver.js';
import { startAdkApiServer } from '../systems/adk-api-server.js';
import { startHelpdesk } from '../systems/helpdesk-service.js';
import type { ChatSystem, HelpdeskChatResult } from './results.js';
import type { ScenarioContext } from './scenario-context.js';
import { chatIteration, measureSideBySide } from './workloads.js';

const SYSTEMS = ['project', 'peer'] as const;

/** Scenario 2: chats of 5 messages against the helpdesk service and the same agent tree in `adk api_server`. */
export async function helpdeskChatScenario(ctx: ScenarioContext): Promise<HelpdeskChatResult> {
  const { config, emulator } = ctx;
  await emulator.setLatency(0);
  const project = await ctx.shared('helpdesk', () => startHelpdesk({ emulatorUrl: emulator.url }));
  const peer = await ctx.shared('adk', () => startAdkApiServer({ emulatorUrl: emulator.url }));
  const systems = { project, peer };
  const drivers: Record<ChatSystem, ChatDriver> = {
    project: new HelpdeskDriver(project.url, 64),
    peer: new AdkChatDriver(peer.url, 64, peer.appName),
  };
  let runs: HelpdeskChatResult['runs'];
  try {
    runs = await measureSideBySide({
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

  return {
    scenario: 2,
    runs,
    messagesPerChat: MESSAGES_PER_CHAT,
    maxRunMs: config.maxRunMs,
    profileIterations: config.profileIterations,
    commands: [project.process.commandLine, peer.process.commandLine],
  };
}

import { A2aChatDriver } from '../drivers/a2a-chat-driver.js';
import { MESSAGES_PER_CHAT, type ChatDriver } from '../drivers/chat-driver.js';
import { HelpdeskDriver } from '../drivers/helpdesk-driver.js';
import { startHelpdesk } from '../systems/helpdesk-service.js';
import type { A2aChatResult, A2aVariant, SystemRun } from './results.js';
import type { ScenarioContext } from './scenario-context.js';
import {
  assertMostlySucceeded,
  chatIteration,
  measuredRun,
  systemRun,
  warmUp,
} from './workloads.js';

const VARIANTS: readonly A2aVariant[] = ['chat', 'a2a'];
const CONCURRENCY = 8;
/** Rounds in which the two ways of asking take turns; the target is judged on their median. */
const ROUNDS = 3;

/**
 * Scenario 9: chats of 5 messages at concurrency 8 against one helpdesk process (one agent tree,
 * sessions in memory), asked through POST /chat and through A2A's `message/send`.
 */
export async function a2aChatScenario(ctx: ScenarioContext): Promise<A2aChatResult> {
  const { config, emulator } = ctx;
  await emulator.setLatency(0);
  const helpdesk = await ctx.shared('helpdesk', () => startHelpdesk({ emulatorUrl: emulator.url }));
  const drivers: Record<A2aVariant, ChatDriver> = {
    chat: new HelpdeskDriver(helpdesk.url, 64),
    a2a: new A2aChatDriver(helpdesk.url, 64),
  };
  const tag = `${ctx.runTag}-s9`;
  const rounds: A2aChatResult['rounds'] = [];
  try {
    for (const key of VARIANTS) {
      await warmUp(chatIteration(drivers[key], `${tag}-warm-${key}`), config.warmup);
    }
    for (let round = 0; round < ROUNDS; round += 1) {
      const runs = {} as Record<A2aVariant, SystemRun>;
      for (const key of VARIANTS) {
        const total = config.chat.concurrent8.project;
        ctx.log(
          `scenario 9: ${key}, round ${round + 1}, concurrency ${CONCURRENCY}, ${total} chats`,
        );
        const result = await measuredRun(
          helpdesk,
          { total, concurrency: CONCURRENCY, maxMs: config.maxRunMs },
          chatIteration(drivers[key], `${tag}-${round}-${key}`),
        );
        assertMostlySucceeded(`scenario 9 ${key} round ${round + 1}`, result);
        runs[key] = systemRun(result);
      }
      rounds.push(runs);
    }
  } finally {
    for (const driver of Object.values(drivers)) driver.close();
  }
  return {
    scenario: 9,
    rounds,
    concurrency: CONCURRENCY,
    messagesPerChat: MESSAGES_PER_CHAT,
    maxRunMs: config.maxRunMs,
    commands: [helpdesk.process.commandLine],
  };
}

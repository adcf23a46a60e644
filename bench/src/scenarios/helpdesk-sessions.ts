import pg from 'pg';
import { AdkChatDriver } from '../drivers/adk-chat-driver.js';
import { MESSAGES_PER_CHAT, type ChatDriver } from '../drivers/chat-driver.js';
import { HelpdeskDriver } from '../drivers/helpdesk-driver.js';
import { startAdkApiServer } from '../systems/adk-api-server.js';
import { startHelpdesk } from '../systems/helpdesk-service.js';
import type { HelpdeskSessionsResult, SessionsSystem, SystemRun } from './results.js';
import type { ScenarioContext } from './scenario-context.js';
import {
  assertMostlySucceeded,
  chatIteration,
  measuredRun,
  systemRun,
  warmUp,
} from './workloads.js';

const SYSTEMS: readonly SessionsSystem[] = ['memory', 'postgres', 'peer'];
const CONCURRENCY = 8;
/** Rounds in which the three systems take turns; the targets are judged on their medians. */
const ROUNDS = 3;

/** `url` with another database name: ADK's service (MikroORM) creates it, the bench drops it. */
function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function dropDatabase(url: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/**
 * Scenario 6: chats of 5 messages at concurrency 8 on the helpdesk with sessions in memory and
 * in PostgreSQL (a schema of the bench database), and on `adk api_server` with ADK's own
 * DatabaseSessionService (`--session_service_uri`, a database of its own on the same server:
 * ADK's tables have fixed names in the default schema).
 */
export async function helpdeskSessionsScenario(
  ctx: ScenarioContext,
): Promise<HelpdeskSessionsResult> {
  const { config, emulator } = ctx;
  await emulator.setLatency(0);
  const db = await ctx.database('s5');
  const adkDatabase = `bench_${ctx.runTag}_s5_adk`.toLowerCase();
  const adkUri = withDatabase(config.databaseUrl, adkDatabase).replace(/^postgres:/, 'postgresql:');
  try {
    const memory = await ctx.shared('helpdesk', () => startHelpdesk({ emulatorUrl: emulator.url }));
    const postgres = await ctx.start(
      startHelpdesk({ emulatorUrl: emulator.url, database: { url: db.url, schema: db.schema } }),
    );
    const peer = await ctx.start(
      startAdkApiServer({ emulatorUrl: emulator.url, sessionServiceUri: adkUri }),
    );
    const systems = { memory, postgres, peer };
    const drivers: Record<SessionsSystem, ChatDriver> = {
      memory: new HelpdeskDriver(memory.url, 64),
      postgres: new HelpdeskDriver(postgres.url, 64),
      peer: new AdkChatDriver(peer.url, 64, peer.appName),
    };
    const tag = `${ctx.runTag}-s5`;
    const rounds: HelpdeskSessionsResult['rounds'] = [];
    try {
      for (const key of SYSTEMS) {
        await warmUp(chatIteration(drivers[key], `${tag}-warm-${key}`), config.warmup);
      }
      for (let round = 0; round < ROUNDS; round += 1) {
        const runs = {} as Record<SessionsSystem, SystemRun>;
        for (const key of SYSTEMS) {
          const counts = config.chat.concurrent8;
          const total = key === 'peer' ? counts.peer : counts.project;
          ctx.log(
            `scenario 6: ${key}, round ${round + 1}, concurrency ${CONCURRENCY}, ${total} chats`,
          );
          const result = await measuredRun(
            systems[key],
            { total, concurrency: CONCURRENCY, maxMs: config.maxRunMs },
            chatIteration(drivers[key], `${tag}-${round}-${key}`),
          );
          assertMostlySucceeded(`scenario 6 ${key} round ${round + 1}`, result);
          runs[key] = systemRun(result);
        }
        rounds.push(runs);
      }
    } finally {
      for (const driver of Object.values(drivers)) driver.close();
    }
    const commands = [memory, postgres, peer].map((s) => s.process.commandLine);
    await ctx.cleanup();
    return {
      scenario: 6,
      rounds,
      concurrency: CONCURRENCY,
      messagesPerChat: MESSAGES_PER_CHAT,
      maxRunMs: config.maxRunMs,
      commands,
    };
  } finally {
    await ctx.cleanup();
    await dropDatabase(config.databaseUrl, adkDatabase).catch((err: unknown) =>
      ctx.warn(`dropping database ${adkDatabase} failed: ${String(err)}`),
    );
  }
}

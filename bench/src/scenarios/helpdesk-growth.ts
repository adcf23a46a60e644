import { setTimeout as delay } from 'node:timers/promises';
import { AdkChatDriver } from '../drivers/adk-chat-driver.js';
import { chatMessages, MESSAGES_PER_CHAT, type ChatDriver } from '../drivers/chat-driver.js';
import { HelpdeskDriver } from '../drivers/helpdesk-driver.js';
import { runLoad } from '../load/run-load.js';
import { StepTimer } from '../load/step-timer.js';
import { startAdkApiServer } from '../systems/adk-api-server.js';
import { startHelpdesk } from '../systems/helpdesk-service.js';
import type { RunningSystem } from '../systems/system.js';
import type { HelpdeskGrowthResult } from './results.js';
import type { ScenarioContext } from './scenario-context.js';
import { assertMostlySucceeded, chatIteration, warmUp } from './workloads.js';

const MB = 1024 * 1024;
/** Sessions the peer is driven through for its memory slope: it cannot keep up with thousands in the time budget. */
const PEER_SESSIONS = 500;

/** RSS after the process had a moment to settle (timers, GC after the burst). */
async function settledRss(system: RunningSystem, settleMs: number): Promise<number> {
  await delay(settleMs);
  return system.process.rss();
}

/** Drives `count` more chats of 5 messages, each a new session, at concurrency 32. */
async function chats(driver: ChatDriver, tag: string, count: number): Promise<void> {
  if (count <= 0) return;
  const result = await runLoad({ total: count, concurrency: 32 }, chatIteration(driver, tag));
  assertMostlySucceeded(`scenario 4 ${tag}`, result);
}

/**
 * Prompt tokens of each turn of one long session: the sum over the turn's model calls of the
 * request body's characters ÷ 4 (the emulator's own usage count), read from its log after each turn.
 */
async function promptTokensPerTurn(
  ctx: ScenarioContext,
  driver: ChatDriver,
  tag: string,
  turns: number,
): Promise<number[]> {
  const tokens: number[] = [];
  await ctx.emulator.clearRequests();
  const timer = new StepTimer(async (step) => {
    if (step !== 'message') return;
    const calls = await ctx.emulator.requests();
    tokens.push(calls.reduce((sum, c) => sum + Math.ceil(JSON.stringify(c.body).length / 4), 0));
    await ctx.emulator.clearRequests();
  });
  await driver.chat(tag, chatMessages(tag, turns), timer);
  if (tokens.length !== turns)
    throw new Error(`long session answered ${tokens.length} of ${turns} turns`);
  return tokens;
}

/**
 * Helpdesk: resident memory as sessions pile up past MAX_SESSIONS, and prompt size as one session
 * grows long; the peer gets the same long session and a shorter memory run for its slope.
 */
export async function helpdeskGrowth(ctx: ScenarioContext): Promise<HelpdeskGrowthResult> {
  const { config, emulator } = ctx;
  const [small, large] = config.growth.helpdeskSessions;
  const { maxSessions, longSessionTurns } = config.growth;
  const tag = `${ctx.runTag}-s4h`;
  await emulator.setLatency(0);

  const project = await ctx.start(startHelpdesk({ emulatorUrl: emulator.url, maxSessions }));
  const driver = new HelpdeskDriver(project.url, 64);
  const rss: Array<[number, number]> = [];
  let projectTokens: number[] = [];
  const started = performance.now();
  try {
    await warmUp(chatIteration(driver, `${tag}-warm`), config.warmup);
    projectTokens = await promptTokensPerTurn(ctx, driver, `${tag}-long`, longSessionTurns);
    await chats(driver, `${tag}-a`, small);
    rss.push([small, await settledRss(project, config.growth.settleMs)]);
    const step = Math.max(1, Math.ceil((large - small) / 4));
    for (let at = small; at < large; at += step) {
      const next = Math.min(large, at + step);
      ctx.log(`scenario 4: helpdesk sessions ${at} → ${next}`);
      await chats(driver, `${tag}-b${at}`, next - at);
      rss.push([next, await settledRss(project, config.growth.settleMs)]);
    }
  } finally {
    driver.close();
  }
  const projectMinutes = (performance.now() - started) / 60_000;
  const projectCommand = project.process.commandLine;
  await ctx.cleanup();

  const peer = await ctx.shared('adk', () => startAdkApiServer({ emulatorUrl: emulator.url }));
  const peerDriver = new AdkChatDriver(peer.url, 64, peer.appName);
  let peerTokens: number[] = [];
  let peerSlope = Number.NaN;
  const peerSessions = Math.min(PEER_SESSIONS, large);
  try {
    await warmUp(chatIteration(peerDriver, `${tag}-pwarm`), config.warmup);
    peerTokens = await promptTokensPerTurn(ctx, peerDriver, `${tag}-plong`, longSessionTurns);
    const before = await settledRss(peer, config.growth.settleMs);
    const run = await runLoad(
      { total: peerSessions, concurrency: 32 },
      chatIteration(peerDriver, `${tag}-p`),
    );
    assertMostlySucceeded('scenario 4 peer sessions', run);
    peerSlope =
      ((await settledRss(peer, config.growth.settleMs)) - before) / MB / (run.completed / 1000);
  } finally {
    peerDriver.close();
  }
  const peerCommand = peer.process.commandLine;
  await ctx.cleanup();

  return {
    sessions: [small, large],
    maxSessions,
    messagesPerChat: MESSAGES_PER_CHAT,
    rss,
    projectMinutes,
    peerSessions,
    peerMbPer1kSessions: peerSlope,
    projectTokens,
    peerTokens,
    commands: [projectCommand, peerCommand],
  };
}

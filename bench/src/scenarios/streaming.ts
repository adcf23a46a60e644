import {
  timeJsonTurn,
  timeStreamedTurn,
  type TurnTiming,
} from '../drivers/streamed-turn-timing.js';
import { chatMessages } from '../drivers/chat-driver.js';
import { startAdkApiServer } from '../systems/adk-api-server.js';
import { startHelpdesk } from '../systems/helpdesk-service.js';
import { summarize } from '../stats/percentiles.js';
import { STREAMING_VARIANTS, type StreamingResult, type StreamingVariant } from './results.js';
import type { ScenarioContext } from './scenario-context.js';

const USER_ID = 'bench';

/**
 * Scenario 7: what a chat user waits for. One message at a time (the billing question: three
 * model calls) with the emulator at a provider's latency, timed to the first event and to the
 * reply: the helpdesk's POST /chat as JSON and as an event stream, and `adk api_server`'s
 * POST /run and /run_sse (streaming) on the same agent tree.
 */
export async function streamingScenario(ctx: ScenarioContext): Promise<StreamingResult> {
  const { config, emulator } = ctx;
  const project = await ctx.shared('helpdesk', () => startHelpdesk({ emulatorUrl: emulator.url }));
  const peer = await ctx.shared('adk', () => startAdkApiServer({ emulatorUrl: emulator.url }));
  const newPeerSession = async () => {
    const res = await fetch(`${peer.url}/apps/${peer.appName}/users/${USER_ID}/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    return ((await res.json()) as { id: string }).id;
  };
  const peerBody = async (text: string, streaming: boolean) => ({
    appName: peer.appName,
    userId: USER_ID,
    sessionId: await newPeerSession(),
    newMessage: { role: 'user', parts: [{ text }] },
    streaming,
  });
  const peerFailed = (_name: string | undefined, data: string) => data.includes('"errorCode"');
  const turn: Record<StreamingVariant, (tag: string, text: string) => Promise<TurnTiming>> = {
    'project-json': (tag, message) =>
      timeJsonTurn(`${project.url}/chat`, { session_id: tag, message }),
    'project-sse': (tag, message) =>
      timeStreamedTurn(
        `${project.url}/chat`,
        { session_id: tag, message },
        { doneEvent: 'done', isFailure: (name) => name === 'error' },
      ),
    'peer-json': async (_tag, text) => timeJsonTurn(`${peer.url}/run`, await peerBody(text, false)),
    'peer-sse': async (_tag, text) =>
      timeStreamedTurn(`${peer.url}/run_sse`, await peerBody(text, true), {
        isFailure: peerFailed,
      }),
  };

  await emulator.setLatency(config.streaming.latencyMs);
  const variants = {} as StreamingResult['variants'];
  try {
    for (const variant of STREAMING_VARIANTS) {
      const timings: TurnTiming[] = [];
      let failed = 0;
      for (let i = 0; i < config.streaming.messages + 1; i += 1) {
        const tag = `${ctx.runTag}-s5-${variant}-${i}`;
        const [message] = chatMessages(tag, 1);
        try {
          const timing = await turn[variant](tag, message ?? '');
          // The first message of each variant warms it up and is not counted.
          if (i > 0) timings.push(timing);
        } catch (err) {
          failed += 1;
          ctx.log(`scenario 7 ${variant}: ${(err as Error).message}`);
        }
      }
      variants[variant] = {
        firstEvent: summarize(timings.map((t) => t.firstEventMs)),
        done: summarize(timings.map((t) => t.doneMs)),
        failed,
      };
      ctx.log(
        `scenario 7 ${variant}: first event p50 ${variants[variant].firstEvent.p50.toFixed(0)} ms, done p50 ${variants[variant].done.p50.toFixed(0)} ms`,
      );
    }
  } finally {
    await emulator.setLatency(0);
  }
  return {
    scenario: 7,
    latencyMs: config.streaming.latencyMs,
    messages: config.streaming.messages,
    variants,
    commands: [project.process.commandLine, peer.process.commandLine],
  };
}

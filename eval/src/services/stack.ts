import { join } from 'node:path';
import { Cassette } from '../cassettes/cassette.js';
import { ProviderProxy, type ProxiedCall } from '../cassettes/provider-proxy.js';
import { paths } from '../paths.js';
import type { EvalSettings } from '../settings.js';
import { startChildService, type ChildService } from './child-service.js';

/** The services under test, each behind its provider proxy, and what the proxies saw. */
export interface Stack {
  emailReviewUrl?: string;
  helpdeskUrl?: string;
  /** The model each service used, as the report names it. */
  models: { emailReview: string; helpdesk: string };
  calls(): ProxiedCall[];
  stop(): Promise<void>;
}

const GOOGLE_API = 'https://generativelanguage.googleapis.com';
const OPENAI_API = 'https://api.openai.com/v1';
const DUMMY_KEY = 'eval-dummy-key';

export function cassetteFile(settings: EvalSettings, wire: 'openai' | 'gemini'): string {
  return join(settings.EVAL_CASSETTES_DIR, settings.EVAL_CASSETTE, `${wire}.jsonl`);
}

/**
 * Starts what the run needs: the emulator (unless a real provider or a replay is asked for), one
 * proxy per provider wire, and the services pointed at the proxies with the pipeline's inputs
 * (KB_DIR, PROMPTS_DIR, SUPPORT_PROFILE_FILE).
 */
export async function startStack(
  settings: EvalSettings,
  want: { email: boolean; chat: boolean },
): Promise<Stack> {
  const started: Array<{ stop(): Promise<void> }> = [];
  const stopAll = async () => {
    for (const item of started.reverse()) await item.stop().catch(() => undefined);
  };
  try {
    let emulator: ChildService | undefined;
    if (settings.mode === 'emulator') {
      emulator = await startChildService({
        name: 'llm-emulator',
        script: paths.emulatorCli,
        args: (port) => ['--port', String(port), '--latency', '0'],
        env: {},
        readyPath: '/healthz',
      });
      started.push(emulator);
    }
    const proxyMode =
      settings.mode === 'replay' ? 'replay' : settings.EVAL_RECORD ? 'record' : 'pass';
    const cassettes: Cassette[] = [];
    const proxyFor = async (wire: 'openai' | 'gemini') => {
      const cassette =
        proxyMode === 'pass'
          ? undefined
          : proxyMode === 'record'
            ? new Cassette(cassetteFile(settings, wire))
            : Cassette.load(cassetteFile(settings, wire));
      if (cassette) cassettes.push(cassette);
      const upstream =
        wire === 'openai'
          ? emulator
            ? `${emulator.url}/v1`
            : (settings.EVAL_OPENAI_BASE_URL ?? OPENAI_API)
          : emulator
            ? emulator.url
            : (settings.EVAL_GEMINI_BASE_URL ?? GOOGLE_API);
      const apiKey =
        wire === 'openai' ? settings.EVAL_OPENAI_API_KEY : settings.EVAL_GEMINI_API_KEY;
      const proxy = await new ProviderProxy({
        wire,
        mode: proxyMode,
        upstream,
        apiKey,
        cassette,
      }).start();
      started.push(proxy);
      return proxy;
    };
    const openai = await proxyFor('openai');
    const gemini = settings.EVAL_HELPDESK_PROVIDER === 'gemini' ? await proxyFor('gemini') : openai;

    const pipelineEnv = {
      KB_DIR: settings.EVAL_KB_DIR,
      PROMPTS_DIR: settings.EVAL_PROMPTS_DIR,
      SUPPORT_PROFILE_FILE: settings.EVAL_SUPPORT_PROFILE_FILE,
    };
    const models = {
      emailReview: settings.EVAL_OPENAI_MODEL ?? 'gpt-4.1-mini',
      helpdesk:
        settings.EVAL_HELPDESK_PROVIDER === 'openai'
          ? (settings.EVAL_OPENAI_MODEL ?? 'gpt-4.1-mini')
          : (settings.EVAL_GEMINI_MODEL ?? 'gemini-2.5-flash'),
    };
    const stack: Stack = {
      models,
      calls: () => [...openai.calls, ...(gemini === openai ? [] : gemini.calls)],
      stop: async () => {
        await stopAll();
        if (proxyMode === 'record') cassettes.forEach((cassette) => cassette.save());
      },
    };
    /** A service as deployed, ready once /readyz answers (with KB_DIR: once the folder is loaded). */
    const startService = async (
      name: string,
      script: string,
      env: Record<string, string | undefined>,
    ) => {
      const service = await startChildService({
        name,
        script,
        env: { ...pipelineEnv, ...env },
        readyPath: '/readyz',
      });
      started.push(service);
      return service.url;
    };
    const starts: Promise<void>[] = [];
    if (want.email) {
      const env = {
        LLM_A_API_KEY: DUMMY_KEY,
        LLM_A_BASE_URL: openai.url,
        LLM_A_MODEL: models.emailReview,
        // A replay miss or a real provider's hiccup should show as a failed case, not a minute of retries.
        LLM_A_MAX_RETRIES: '1',
        LLM_RETRY_BUDGET_MS: '5000',
        MODEL_JOB_LEASE_SECONDS: '30',
      };
      starts.push(
        startService('email-review', paths.emailReviewServer, env).then(
          (url) => void (stack.emailReviewUrl = url),
        ),
      );
    }
    if (want.chat) {
      const provider = settings.EVAL_HELPDESK_PROVIDER;
      const env = {
        AGENT_LLM_PROVIDER: provider,
        AGENT_LLM_API_KEY: DUMMY_KEY,
        AGENT_LLM_BASE_URL: provider === 'openai' ? openai.url : gemini.url,
        AGENT_LLM_MODEL: models.helpdesk,
        AGENT_LLM_MAX_RETRIES: '1',
      };
      starts.push(
        startService('helpdesk', paths.helpdeskServer, env).then(
          (url) => void (stack.helpdeskUrl = url),
        ),
      );
    }
    const outcomes = await Promise.allSettled(starts);
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
    return stack;
  } catch (error) {
    await stopAll();
    throw error;
  }
}

import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEmulator, type Emulator, type LoggedRequest } from '@repo/llm-emulator';
import {
  createLogger,
  createMetricsRegistry,
  undocumentedResponses,
  type AuthSettings,
  type Logger,
  type OpenApiDocument,
  type ResponseEvent,
  type Tracing,
  type TrustProxy,
} from '@repo/http-kit';
import type { LlmAgent, Runner } from '@google/adk';
import type { Express } from 'express';
import type { KnowledgeBase } from '@repo/knowledge';
import request from 'supertest';
import { routeAdkLogsTo } from '../../src/agents/adk-logging.js';
import type { ModelSettings } from '../../src/llm/model.js';
import type { ChatService, ChatServiceOptions } from '../../src/chat/chat-service.js';
import type { WidgetSettings } from '../../src/app.js';
import type { InvoiceAccessRule } from '../../src/tools/invoice-access.js';
import { createHelpdesk, type HelpdeskDatabase } from '../../src/helpdesk.js';
import type { AgentPrompts } from '../../src/agents/agent-tree.js';
import type { HelpCenterSettings } from '../../src/help-center/help-center.js';
import type { ToolSources } from '../../src/tools/tool-sources.js';

/** @repo/knowledge's sample help center (20 articles of a lighting company), as KB_DIR. */
export const SAMPLE_HELP_CENTER = fileURLToPath(
  new URL('../../../../packages/knowledge/sample-help-center', import.meta.url),
);

export const INVOICE_QUESTION = 'What is the amount due on invoice INV-1001?';
export const OUTAGE_QUESTION = 'Is the API down?';
export const HUMAN_REQUEST =
  'This is ridiculous, nothing works! I want to talk to a human manager now.';

/** A clock tests move by hand. */
export class ManualClock {
  constructor(public now = Date.UTC(2025, 0, 1)) {}
  readonly read = () => this.now;
  advance(ms: number): void {
    this.now += ms;
  }
}

/** The providers every routing and fault suite runs on (AGENT_LLM_PROVIDER). */
export const PROVIDERS = ['gemini', 'openai'] as const;
export type TestProvider = (typeof PROVIDERS)[number];

export interface HelpdeskUnderTest {
  provider: TestProvider;
  emulator: Emulator;
  /** The root of the agent tree the service runs. */
  agent: LlmAgent;
  app: Express;
  chat: ChatService;
  http: ReturnType<typeof request>;
  send(sessionId: string, message: string): request.Test;
  /** The app listening on a port of its own (for event streams read as they arrive). */
  url(): Promise<string>;
  /** Every response the app gave, as http-kit's `onResponse` reports it. */
  responses: ResponseEvent[];
  /** The app's own GET /openapi.json. */
  document(): Promise<OpenApiDocument>;
  /** Model calls the emulator received on the provider's wire, oldest first. */
  modelCalls(): LoggedRequest[];
  /** Model calls the emulator has received but not answered yet. */
  pendingModelCalls(): number;
  /** The help center's knowledge base (the /kb routes' and search_help_center's). */
  knowledge: KnowledgeBase;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** The agents' provider (default gemini), talking to the emulator's wire of that provider. */
  provider?: TestProvider;
  model?: Partial<ModelSettings>;
  chat?: Partial<Omit<ChatServiceOptions, 'agent' | 'runner'>>;
  /** A Runner of the test's own over the agent tree (default: the chat service's). */
  runner?: (agent: LlmAgent) => Runner;
  apiToken?: string;
  latencyMs?: number;
  /** The app's logger (default silent); ADK's own lines stay silent either way. */
  logger?: Logger;
  /** Comment lines on event streams this often (the app's default 15 s). */
  sseHeartbeatMs?: number;
  /** Serve GET /metrics, fed like server.ts feeds it (behind `apiToken` unless `public`). */
  metrics?: { public?: boolean };
  /** Spans for requests and model calls (a started startTracing); ADK's join them. */
  tracing?: Tracing;
  /** Sessions in PostgreSQL (set up before startHelpdesk resolves); default in memory. */
  database?: HelpdeskDatabase;
  /** The chat page's settings (WIDGET_*): who may frame it, a public widget's limits. */
  widget?: WidgetSettings;
  /** TRUST_PROXY: the proxies whose X-Forwarded-For is believed (default none). */
  trustProxy?: TrustProxy;
  /** Who may see which invoice (default: lookup_invoice's own rule). */
  invoiceAccess?: InvoiceAccessRule;
  /** The base URL the A2A agent card advertises (PUBLIC_URL). */
  publicUrl?: string;
  /** Named tokens (API_TOKENS). */
  auth?: AuthSettings;
  /** OPERATORS: who may use the operator console. */
  operators?: string[];
  /** HANDOFF_WAIT_SECONDS, in ms. */
  handoffWaitMs?: number;
  /** The agents' prompts (a support profile's); default the package's defaults. */
  prompts?: AgentPrompts;
  /** Where the tools read invoices and statuses (default the static data). */
  toolSources?: Partial<ToolSources>;
  /** The help center (KB_DIR); with a database, its schema defaults to the sessions' (dropped with it). */
  helpCenter?: HelpCenterSettings;
}

const silent = createLogger({ name: 'helpdesk-test', level: 'silent' });
routeAdkLogsTo(silent);

/** The real service (real ADK, real @google/genai over HTTP) against the emulator. */
export async function startHelpdesk(options: HarnessOptions = {}): Promise<HelpdeskUnderTest> {
  const emulator = await startEmulator({ port: 0, latencyMs: options.latencyMs ?? 0 });
  const provider = options.provider ?? 'gemini';
  const registry = options.metrics && createMetricsRegistry();
  const responses: ResponseEvent[] = [];
  // The service's own wiring (src/helpdesk.ts), as server.ts runs it, with the test's settings.
  const service = createHelpdesk({
    model: {
      provider,
      apiKey: 'test-key',
      ...(provider === 'openai'
        ? { model: 'gpt-4.1-mini', baseUrl: `${emulator.url}/v1` }
        : { model: 'gemini-2.5-flash', baseUrl: emulator.url }),
      timeoutMs: 5_000,
      maxRetries: 2,
      retryBaseDelayMs: 10,
      ...options.model,
    },
    logger: options.logger ?? silent,
    database: options.database,
    chat: { maxSessions: 1_000, ...options.chat },
    runner: options.runner,
    apiToken: options.apiToken,
    sseHeartbeatMs: options.sseHeartbeatMs,
    onResponse: (event) => responses.push(event),
    metrics: registry && { registry, ...options.metrics },
    tracing: options.tracing,
    widget: options.widget,
    trustProxy: options.trustProxy,
    invoiceAccess: options.invoiceAccess,
    publicUrl: options.publicUrl,
    auth: options.auth,
    operators: options.operators,
    handoffWaitMs: options.handoffWaitMs,
    prompts: options.prompts,
    toolSources: options.toolSources,
    helpCenter: {
      ...(options.database ? { schema: options.database.schema } : {}),
      debounceMs: 50,
      ...options.helpCenter,
    },
  });
  await service.start();
  const { app, chat, agent } = service;
  let server: Server | undefined;
  const url = async () => {
    server ??= app.listen(0, '127.0.0.1');
    if (!server.listening) await once(server, 'listening');
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const closeServer = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  const http = request(app);
  const onWire = (r: LoggedRequest) => r.provider === provider && r.method === 'POST';
  const helpdesk: HelpdeskUnderTest = {
    provider,
    emulator,
    agent,
    knowledge: service.knowledge,
    app,
    chat,
    http,
    url,
    responses,
    document: async () => {
      const get = http.get('/openapi.json');
      if (options.apiToken) get.set('authorization', `Bearer ${options.apiToken}`);
      return (await get.expect(200)).body as OpenApiDocument;
    },
    send: (sessionId, message) => http.post('/chat').send({ session_id: sessionId, message }),
    modelCalls: () => emulator.requests.list().filter(onWire),
    // The emulator logs a request on arrival with status 0 and sets the status once it answers.
    pendingModelCalls: () =>
      emulator.requests.list().filter((r) => onWire(r) && r.status === 0).length,
    close: async () => {
      await closeServer();
      await service.close();
      await emulator.close();
    },
  };
  started.push(helpdesk);
  return helpdesk;
}

const started: HelpdeskUnderTest[] = [];

/**
 * The responses of every helpdesk this test file started whose status the app's own document
 * does not list for their route: what a suite's afterAll expects to be [].
 */
export async function undocumentedResponsesSoFar(): Promise<ResponseEvent[]> {
  const found: ResponseEvent[] = [];
  for (const helpdesk of started) {
    found.push(...undocumentedResponses(await helpdesk.document(), helpdesk.responses));
  }
  return found;
}

interface GeminiBody {
  systemInstruction?: { parts?: Array<{ text?: string }> };
  contents?: Array<{ role?: string; parts?: Array<Record<string, unknown>> }>;
}

interface ChatBody {
  messages?: Array<{
    role: string;
    content?: string | Array<{ text?: string }> | null;
    tool_call_id?: string;
    tool_calls?: Array<{ id: string; function: { name: string } }>;
  }>;
}

type ChatMessage = NonNullable<ChatBody['messages']>[number];

const chatText = (content: ChatMessage['content']) =>
  typeof content === 'string' ? content : (content ?? []).map((p) => p.text ?? '').join('\n');

const chatMessages = (call: LoggedRequest) => (call.body as ChatBody).messages ?? [];

/** The system instruction of a model call, as the provider received it. */
export function systemInstructionOf(call: LoggedRequest): string {
  return call.provider === 'openai'
    ? chatMessages(call)
        .filter((m) => m.role === 'system')
        .map((m) => chatText(m.content))
        .join('\n')
    : ((call.body as GeminiBody).systemInstruction?.parts ?? [])
        .map((p) => p.text ?? '')
        .join('\n');
}

/** The agent a model call was made for, from ADK's identity line in the system instruction. */
export function callerOf(call: LoggedRequest): string | undefined {
  return /Your internal name is "([^"]+)"/.exec(systemInstructionOf(call))?.[1];
}

type FunctionResponse = { name: string; response: Record<string, unknown> };

/** Tool results as `tool` messages, named after the call they answer. */
function toolMessagesIn(call: LoggedRequest): FunctionResponse[] {
  const names = new Map<string, string>();
  const found: FunctionResponse[] = [];
  for (const message of chatMessages(call)) {
    for (const toolCall of message.tool_calls ?? []) names.set(toolCall.id, toolCall.function.name);
    if (message.role === 'tool') {
      found.push({
        name: names.get(message.tool_call_id ?? '') ?? 'unknown',
        response: JSON.parse(chatText(message.content)) as Record<string, unknown>,
      });
    }
  }
  return found;
}

/** Function responses sent back to the model in a call, by tool name. */
export function functionResponsesIn(call: LoggedRequest): FunctionResponse[] {
  if (call.provider === 'openai') return toolMessagesIn(call);
  const found: FunctionResponse[] = [];
  for (const content of (call.body as GeminiBody).contents ?? []) {
    for (const part of content.parts ?? []) {
      const response = part['functionResponse'] as FunctionResponse | undefined;
      if (response) found.push(response);
    }
  }
  return found;
}

/** Every text the model was shown in a call (contents only, not the system instruction). */
export function textsIn(call: LoggedRequest): string {
  if (call.provider === 'openai') {
    return chatMessages(call)
      .filter((m) => m.role === 'user' || m.role === 'assistant')
      .map((m) => chatText(m.content))
      .join('\n');
  }
  return ((call.body as GeminiBody).contents ?? [])
    .flatMap((c) => c.parts ?? [])
    .map((p) => (typeof p['text'] === 'string' ? p['text'] : ''))
    .join('\n');
}

/** Polls until `check` is true; fails after `timeoutMs`. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

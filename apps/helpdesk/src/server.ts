import { createLogger, serve } from '@repo/http-kit';
import { loadOrExit, redactSecrets } from '@repo/llm-config';
import { routeAdkLogsTo } from './adk-logging.js';
import { createRootAgent } from './agents/agent-tree.js';
import { createApp } from './app.js';
import { createChatService } from './chat/chat-service.js';
import { loadServiceEnv } from './env.js';

const env = loadOrExit(() => loadServiceEnv(), 'helpdesk');
const logger = createLogger({ name: 'helpdesk', level: env.LOG_LEVEL });
routeAdkLogsTo(logger);

const sessionTtlMs = env.SESSION_TTL_SECONDS * 1000;
const chat = createChatService({
  agent: createRootAgent(env.agentModel),
  appName: env.agentModel.appName,
  sessionTtlMs,
  maxSessions: env.MAX_SESSIONS,
});
// Requests evict expired sessions as they come; this sweep frees memory while the service is idle.
const sweep = setInterval(() => chat.evictExpired(), Math.min(sessionTtlMs, 60_000));
sweep.unref();

const app = createApp({ chat, logger, apiToken: env.API_TOKEN });
const running = await serve(app, {
  port: env.PORT,
  host: env.HOST,
  logger,
  onClose: [() => clearInterval(sweep)],
});
logger.info(
  {
    url: running.url,
    model: env.agentModel.model,
    settings: redactSecrets({
      ...env.agentModel,
      SESSION_TTL_SECONDS: env.SESSION_TTL_SECONDS,
      MAX_SESSIONS: env.MAX_SESSIONS,
    }),
  },
  'helpdesk listening',
);

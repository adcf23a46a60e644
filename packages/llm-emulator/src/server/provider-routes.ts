import type { Provider } from '../control/faults.js';
import { generateContentRoute } from '../gemini/generate-content-route.js';
import { chatCompletionsRoute } from '../openai/chat-completions-route.js';
import { modelInfo, modelsList } from '../openai/models-list.js';
import type { Reply } from './reply.js';

export interface ProviderRoute {
  provider: Provider;
  model?: string;
  /** Undefined for an unknown path inside the provider's namespace (answered 404 in its error shape). */
  run?: (body: unknown, bodyChars: number) => { model?: string; reply: Reply };
  needsBody: boolean;
}

const GEMINI_METHOD =
  /^\/(v1beta|v1|v1alpha)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** Which provider endpoint a request is for, or undefined when the path belongs to neither provider. */
export function providerRoute(
  method: string,
  path: string,
  query: URLSearchParams,
): ProviderRoute | undefined {
  const gemini = GEMINI_METHOD.exec(path);
  if (gemini) {
    const model = decodeURIComponent(gemini[2] ?? '');
    const stream = gemini[3] === 'streamGenerateContent';
    const sse = query.get('alt') === 'sse';
    if (method !== 'POST') return { provider: 'gemini', model, needsBody: false };
    return {
      provider: 'gemini',
      model,
      needsBody: true,
      run: (body, chars) => {
        const reply = generateContentRoute(model, stream, body, chars);
        // Without alt=sse the streaming endpoint answers one JSON array of chunks.
        return {
          model,
          reply:
            reply.kind === 'sse' && !sse
              ? { kind: 'json', status: 200, body: reply.events }
              : reply,
        };
      },
    };
  }
  if (path.startsWith('/v1beta/') || path.startsWith('/v1alpha/'))
    return { provider: 'gemini', needsBody: false };
  if (!path.startsWith('/v1/')) return undefined;
  if (path === '/v1/chat/completions' && method === 'POST') {
    return {
      provider: 'openai',
      needsBody: true,
      run: (body, chars) => chatCompletionsRoute(body, chars),
    };
  }
  if (path === '/v1/models' && method === 'GET') {
    return {
      provider: 'openai',
      needsBody: false,
      run: () => ({ reply: { kind: 'json', status: 200, body: modelsList() } }),
    };
  }
  const model = /^\/v1\/models\/([^/]+)$/.exec(path)?.[1];
  if (model && method === 'GET') {
    const id = decodeURIComponent(model);
    return {
      provider: 'openai',
      model: id,
      needsBody: false,
      run: () => ({ model: id, reply: { kind: 'json', status: 200, body: modelInfo(id) } }),
    };
  }
  return { provider: 'openai', needsBody: false };
}

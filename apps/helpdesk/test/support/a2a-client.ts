import type { DataPart, MessageSendParams, Part } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { randomUUID } from 'node:crypto';

/** The A2A suites' client side: the SDK's own client and message types, never hand-built JSON. */

/** A message as an agent sends it: the SDK's own types, one text part. */
export function message(text: string, contextId?: string): MessageSendParams {
  return {
    message: {
      kind: 'message',
      role: 'user',
      messageId: randomUUID(),
      parts: [{ kind: 'text', text }],
      ...(contextId ? { contextId } : {}),
    },
  };
}

/** A client made by the SDK's factory from the card it resolves at `baseUrl`. */
export function clientFor(baseUrl: string, token?: string): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (token) headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return factory.createFromUrl(baseUrl);
}

export const dataOf = (parts: readonly Part[] | undefined) =>
  (parts ?? []).filter((p): p is DataPart => p.kind === 'data').map((p) => p.data);
export const textOf = (parts: readonly Part[] | undefined) =>
  (parts ?? []).flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('');

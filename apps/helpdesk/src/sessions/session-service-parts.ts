import type { GetSessionConfig, ListSessionsResponse, Session } from '@google/adk';

/** One map key per ADK session. */
export const sessionKey = (appName: string, userId: string, sessionId: string) =>
  `${appName}\u0000${userId}\u0000${sessionId}`;

/** getSession's `config` applied to a copy's events (most recent N, after a timestamp). */
export function applyGetConfig(session: Session, config: GetSessionConfig | undefined): Session {
  if (config?.numRecentEvents) session.events = session.events.slice(-config.numRecentEvents);
  if (config?.afterTimestamp) {
    const after = config.afterTimestamp;
    session.events = session.events.filter((event) => event.timestamp >= after);
  }
  return session;
}

/** listSessions' answer for sessions listed without their events: one page holding them all. */
export function onePage(sessions: Session[]): ListSessionsResponse {
  return {
    sessions,
    page: 1,
    limit: sessions.length,
    totalItems: sessions.length,
    totalPages: sessions.length ? 1 : 0,
  };
}

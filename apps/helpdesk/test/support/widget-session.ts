import type request from 'supertest';

/** What POST /widget/sessions answers: the conversation and the secret that reaches it. */
export interface WidgetSession {
  session_id: string;
  widget_token: string;
}

type Http = ReturnType<typeof request>;

/** A conversation the public widget starts, as the chat page does. */
export async function startWidgetSession(http: Http): Promise<WidgetSession> {
  const answer = await http.post('/widget/sessions').expect(201);
  return answer.body as WidgetSession;
}

/** POST /chat as the public widget: no bearer token, the session's secret instead. */
export const widgetSend = (http: Http, session: WidgetSession, message: string) =>
  http
    .post('/chat')
    .set('x-widget-token', session.widget_token)
    .send({ session_id: session.session_id, message });

/** GET /sessions/{id} as the public widget. */
export const widgetRead = (http: Http, session: WidgetSession) =>
  http.get(`/sessions/${session.session_id}`).set('x-widget-token', session.widget_token);

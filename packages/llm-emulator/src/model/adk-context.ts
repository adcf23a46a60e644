/**
 * ADK shows other agents' turns to the current agent as user text ("For context:", "[agent] said: …",
 * "[agent] called tool …"); they are history, not something the user asked.
 */
export function isAdkContextLine(text: string): boolean {
  return text === 'For context:' || /^\[[^\]\n]+\] (said: |called tool `|tool `)/.test(text);
}

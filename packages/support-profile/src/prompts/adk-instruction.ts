/**
 * A rendered helpdesk instruction as an ADK InstructionProvider. @google/adk 1.2.0 runs every *string*
 * instruction through injectSessionState (agents/instructions.js): each `{name}` whose inside is an identifier
 * (or `app:…`, `user:…`, `temp:…`, `artifact.…`) is replaced by session state, and one that is not in the state
 * fails the turn ("Context variable not found"). ADK has no escape for a brace. A profile's text ("our {beta}
 * plan") must reach the model as written, so pass a function: LlmAgent.canonicalInstruction returns a provider's
 * text with `requireStateInjection: false`, and nothing is substituted.
 */
export function adkInstruction(text: string): () => string {
  return () => text;
}

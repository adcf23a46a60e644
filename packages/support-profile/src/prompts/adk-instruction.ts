/**
 * A rendered helpdesk instruction as an ADK InstructionProvider. ADK replaces each `{name}` of a
 * *string* instruction with session state and fails the turn when it is missing, with no escape for
 * a brace; a provider's text is used as it is, so a profile's "our {beta} plan" reaches the model.
 */
export function adkInstruction(text: string): () => string {
  return () => text;
}

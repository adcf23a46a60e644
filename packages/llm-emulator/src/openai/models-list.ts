const MODELS = ['gpt-4.1-mini', 'gpt-4.1', 'gpt-4.1-nano', 'gpt-4o', 'gpt-4o-mini', 'o4-mini'];

/** `GET /v1/models`: the model names services commonly configure; any name is accepted by chat completions. */
export function modelsList() {
  return {
    object: 'list',
    data: MODELS.map((id) => ({
      id,
      object: 'model',
      created: 1_700_000_000,
      owned_by: 'llm-emulator',
    })),
  };
}

export function modelInfo(id: string) {
  return { id, object: 'model', created: 1_700_000_000, owned_by: 'llm-emulator' };
}

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { EvalSettings } from '../settings.js';

/** What a recording was made with (cassette.json): a replay starts the services the same way. */
const metaSchema = z.object({
  recorded_at: z.string(),
  /** Where the answers came from: `llm-emulator` or the base URLs (never a key). */
  provider: z.string(),
  helpdesk_provider: z.enum(['gemini', 'openai']),
  openai_model: z.string().optional(),
  gemini_model: z.string().optional(),
});
export type CassetteMeta = z.infer<typeof metaSchema>;

const metaFile = (settings: EvalSettings) =>
  join(settings.EVAL_CASSETTES_DIR, settings.EVAL_CASSETTE, 'cassette.json');

function readMeta(settings: EvalSettings): CassetteMeta | undefined {
  const file = metaFile(settings);
  return existsSync(file) ? metaSchema.parse(JSON.parse(readFileSync(file, 'utf8'))) : undefined;
}

/** Where a run's answers come from, in words (never a key). */
export function providerDescription(settings: EvalSettings): string {
  if (settings.mode === 'replay') {
    const source = readMeta(settings)?.provider ?? 'an unnamed provider';
    return `cassette ${settings.EVAL_CASSETTE}, recorded from ${source}`;
  }
  if (settings.mode === 'emulator')
    return 'llm-emulator (packages/llm-emulator, started by the suite)';
  return [
    settings.EVAL_OPENAI_BASE_URL ?? 'api.openai.com',
    settings.EVAL_GEMINI_BASE_URL ?? 'generativelanguage.googleapis.com',
  ].join(' + ');
}

export function writeCassetteMeta(settings: EvalSettings): void {
  const meta: CassetteMeta = {
    recorded_at: new Date().toISOString(),
    provider: providerDescription(settings),
    helpdesk_provider: settings.EVAL_HELPDESK_PROVIDER,
    openai_model: settings.EVAL_OPENAI_MODEL,
    gemini_model: settings.EVAL_GEMINI_MODEL,
  };
  writeFileSync(metaFile(settings), `${JSON.stringify(meta, null, 2)}\n`);
}

/** A replay's settings: the recording's provider wire and models over the caller's. */
export function withRecordedSettings(settings: EvalSettings): EvalSettings {
  const meta = readMeta(settings);
  if (!meta) return settings;
  return {
    ...settings,
    EVAL_HELPDESK_PROVIDER: meta.helpdesk_provider,
    EVAL_OPENAI_MODEL: meta.openai_model,
    EVAL_GEMINI_MODEL: meta.gemini_model,
  };
}

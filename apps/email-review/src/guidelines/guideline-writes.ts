import { table } from '../db/tables.js';
import type { Guideline, GuidelineScope } from './guideline.js';
import type { GuidelineStore } from './guideline-store.js';

/** The NOTIFY channel of one schema's guideline writes (deployments sharing a database stay apart). */
export const guidelineWritesChannel = (schema: string) => `email_guidelines_${schema}`.slice(0, 63);

/** A statement-level trigger NOTIFYs every write of the guidelines, whichever instance made it. */
export function guidelineWritesMigration(schema: string): string {
  const fn = table(schema, 'email_guidelines_notify');
  const channel = guidelineWritesChannel(schema).replace(/'/g, "''");
  return `
    CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_notify('${channel}', ''); RETURN NULL; END $$;
    CREATE OR REPLACE TRIGGER email_guidelines_notify
      AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table(schema, 'email_guidelines')}
      FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();`;
}

/**
 * What this instance has heard of the guideline writes: a generation that moves on with each write
 * (another instance's, by the change listener; this one's, when it returns) and with each loss or
 * start of the listener. A read may be kept only while heard and within its generation.
 */
export class GuidelineWrites {
  generation = 0;
  /** The listener is LISTENing: every committed write reaches `written`. */
  heard = false;

  written(): void {
    this.generation += 1;
  }

  listening(heard: boolean): void {
    this.heard = heard;
    this.generation += 1;
  }
}

/** The most scope sets kept: each sender has its own. */
const KEPT_READS = 1_000;

/**
 * The store, with each draft's read kept until a guideline write is heard (a draft reads the same
 * few scope sets over and over, and guidelines change rarely); without a listener, every read goes
 * to the store.
 */
export function keptDraftReads(store: GuidelineStore, writes: GuidelineWrites): GuidelineStore {
  const kept = new Map<string, Guideline[]>();
  let keptIn = writes.generation;
  const wrote =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await write(...args);
      } finally {
        writes.written();
      }
    };
  return {
    async forDraft(scopes: readonly GuidelineScope[], limit: number) {
      if (!writes.heard) return store.forDraft(scopes, limit);
      if (keptIn !== writes.generation || kept.size >= KEPT_READS) {
        kept.clear();
        keptIn = writes.generation;
      }
      const key = JSON.stringify([scopes, limit]);
      const hit = kept.get(key);
      if (hit) return hit;
      const generation = writes.generation;
      const read = await store.forDraft(scopes, limit);
      if (writes.heard && writes.generation === generation) kept.set(key, read);
      return read;
    },
    list: (filter) => store.list(filter),
    update: wrote((id, change, at) => store.update(id, change, at)),
    delete: wrote((id) => store.delete(id)),
    learn: wrote((jobId, rules, source, at) => store.learn(jobId, rules, source, at)),
  };
}

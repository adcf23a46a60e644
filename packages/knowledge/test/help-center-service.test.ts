import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { openHelpCenter } from '../src/help-center/help-center-service.js';
import { knowledgeEnv } from '../src/help-center/knowledge-env.js';
import { MemoryKnowledgeBase } from '../src/store/memory-knowledge-base.js';
import { guardedKnowledgeBase } from '../src/help-center/help-center-service.js';
import { capturedLogger } from './help-center-support.js';
import { SAMPLE_DIR } from './knowledge-base-contract.js';
import { z } from 'zod';

describe('a service’s help center', () => {
  it('when started with KB_DIR, then its articles are there and close stops the watch', async () => {
    const { logger } = capturedLogger();
    const helpCenter = openHelpCenter({ settings: { dir: SAMPLE_DIR }, logger });

    await helpCenter.start();

    expect((await helpCenter.kb.list({ limit: 100 })).articles).toHaveLength(20);
    await helpCenter.close();
  });

  it('when KB_DIR cannot be read, then one error line names it and the knowledge base still works', async () => {
    const { logger, lines } = capturedLogger();
    const dir = join(tmpdir(), `no-such-help-center-${process.pid}`);
    const helpCenter = openHelpCenter({ settings: { dir }, logger });

    await helpCenter.start();

    expect(lines.filter((line) => line['level'] === 50)).toEqual([
      expect.objectContaining({ dir, msg: 'help center folder not loaded' }),
    ]);
    await helpCenter.kb.upsert({ slug: 'a', title: 'A', body: 'Text.' });
    expect(await helpCenter.kb.get('a')).toBeDefined();
    await helpCenter.close();
  });

  it('when guarded, then every call goes through the guard', async () => {
    const guarded: string[] = [];
    const kb = guardedKnowledgeBase(new MemoryKnowledgeBase(), async (step) => {
      guarded.push('call');
      return step();
    });

    await kb.upsert({ slug: 'a', title: 'A', body: 'Text.' });
    await kb.get('a');
    await kb.list({ limit: 1 });
    await kb.search('text');
    await kb.delete('a');

    expect(guarded).toHaveLength(5);
  });

  it('when the environment sets KB_DIR and KB_SCHEMA, then they are read; a bad schema name is refused', () => {
    const schema = z.object(knowledgeEnv());
    expect(schema.parse({ KB_DIR: ' /srv/help ' })).toEqual({
      KB_DIR: '/srv/help',
      KB_SCHEMA: 'knowledge',
    });
    expect(schema.parse({ KB_DIR: '' }).KB_DIR).toBeUndefined();
    expect(schema.safeParse({ KB_SCHEMA: 'Knowledge; DROP' }).success).toBe(false);
  });
});

import { placeOf, summarizeProfile } from '../src/profile/cpu-profile.js';

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });

// root → handler (app) → query (pg); plus idle and GC.
const profile = {
  nodes: [
    { id: 1, callFrame: frame('(root)', ''), children: [2, 4, 5] },
    {
      id: 2,
      callFrame: frame('handler', 'file:///srv/checkout/apps/email-review/dist/routes/threads.js'),
      children: [3],
    },
    {
      id: 3,
      callFrame: frame(
        'query',
        'file:///srv/checkout/node_modules/.pnpm/pg@8/node_modules/pg/lib/client.js',
      ),
    },
    { id: 4, callFrame: frame('(idle)', '') },
    { id: 5, callFrame: frame('(garbage collector)', '') },
  ],
  samples: [4, 2, 3, 3, 5, 3],
  timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000],
};

describe('cpu profile summary', () => {
  it('when a script lives in node_modules, then its place is the package; in the repo, then the app', () => {
    expect(placeOf('file:///x/node_modules/.pnpm/a/node_modules/@scope/pkg/index.js', 'f')).toBe(
      '@scope/pkg',
    );
    expect(placeOf('file:///srv/checkout/apps/helpdesk/dist/app.js', 'f')).toBe('apps/helpdesk');
    expect(placeOf('node:internal/timers', 'f')).toBe('node:internal');
  });

  it('when summarized, then idle time is left out and self and inclusive shares are of the busy time', () => {
    const summary = summarizeProfile(profile);
    expect(summary.busyMs).toBe(5);
    expect(summary.byPlace).toEqual(
      expect.arrayContaining([
        { name: 'pg', percent: 60 },
        { name: 'apps/email-review', percent: 20 },
        { name: 'GC', percent: 20 },
      ]),
    );
    expect(summary.inclusiveByPlace).toEqual(
      expect.arrayContaining([{ name: 'apps/email-review', percent: 80 }]),
    );
  });

  it('when the first milliseconds are skipped, then their samples do not count', () => {
    const summary = summarizeProfile(profile, { skipMs: 3 });
    expect(summary.busyMs).toBe(3);
  });
});

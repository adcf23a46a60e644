import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The parts of V8's .cpuprofile format (written by `node --cpu-prof`) that the summary reads. */
interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileEntry {
  name: string;
  /** Share of the busy (non-idle) samples, in percent. */
  percent: number;
}

export interface ProfileSummary {
  busyMs: number;
  /** Self time grouped by where the code lives (a package, node internals, the app, GC). */
  byPlace: ProfileEntry[];
  /** Time with a frame of that place anywhere on the stack (what a package costs, callees included). */
  inclusiveByPlace: ProfileEntry[];
  /** The hottest functions by self time. */
  topFunctions: ProfileEntry[];
}

const IDLE = new Set(['(idle)', '(program)']);

/** Which package (or node, or the app itself) a script URL belongs to. */
export function placeOf(url: string, functionName: string): string {
  if (functionName === '(garbage collector)') return 'GC';
  if (!url) return functionName.startsWith('(') ? functionName : 'native (syscalls, V8 builtins)';
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0] ?? ''}`;
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1] ?? ''}` : (rest[0] ?? url);
  }
  const app = /\/(apps|packages)\/([^/]+)\//.exec(url);
  return app ? `${app[1]}/${app[2]}` : url;
}

function shortName(frame: { functionName: string; url: string; lineNumber: number }): string {
  const file = frame.url.split('/').slice(-2).join('/');
  return `${frame.functionName || '(anonymous)'} ${file ? `(${placeOf(frame.url, frame.functionName)}: ${file}:${frame.lineNumber + 1})` : ''}`.trim();
}

function top(map: Map<string, number>, busy: number, n: number): ProfileEntry[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => ({ name, percent: busy ? (100 * us) / busy : 0 }));
}

export interface SummaryOptions {
  topN?: number;
  /** Samples from the first `skipMs` of the profile (start-up, warm-up) are left out. */
  skipMs?: number;
}

/** Self time per place and per function, ignoring idle time. */
export function summarizeProfile(
  profile: CpuProfile,
  options: SummaryOptions = {},
): ProfileSummary {
  const topN = options.topN ?? 12;
  const skipUs = (options.skipMs ?? 0) * 1000;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  const selfUs = new Map<number, number>();
  let elapsedUs = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    elapsedUs += delta;
    if (elapsedUs > skipUs) selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  });
  const byPlace = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame || IDLE.has(frame.functionName)) continue;
    busy += us;
    const place = placeOf(frame.url, frame.functionName);
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
    const name = shortName(frame);
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const f = byId.get(at)?.callFrame;
      // Node's own frames sit under every stack (timers, ticks): only packages and the app say something here.
      if (f?.url && !f.url.startsWith('node:')) onStack.add(placeOf(f.url, f.functionName));
    }
    for (const p of onStack) inclusive.set(p, (inclusive.get(p) ?? 0) + us);
  }
  return {
    busyMs: busy / 1000,
    byPlace: top(byPlace, busy, topN),
    inclusiveByPlace: top(inclusive, busy, topN),
    topFunctions: top(byFunction, busy, topN),
  };
}

/** Reads the (single, or the largest) .cpuprofile written into `dir` and summarizes it. */
export async function summarizeProfileDir(
  dir: string,
  options: SummaryOptions = {},
): Promise<ProfileSummary> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length === 0) throw new Error(`no .cpuprofile in ${dir}`);
  const summaries = await Promise.all(
    files.map(async (f) =>
      summarizeProfile(JSON.parse(await readFile(join(dir, f), 'utf8')) as CpuProfile, options),
    ),
  );
  return summaries.sort((a, b) => b.busyMs - a.busyMs)[0] as ProfileSummary;
}

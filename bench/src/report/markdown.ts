import type { BenchReport, Cell, Section, Table, TargetCheck } from './report-model.js';

function formatCell(cell: Cell, decimals: number): string {
  if (typeof cell === 'string') return cell;
  if (!Number.isFinite(cell)) return 'n/a';
  return cell.toFixed(decimals);
}

export function markdownTable(table: Table): string {
  const decimals = table.decimals ?? 1;
  const lines = [
    `| ${table.columns.join(' | ')} |`,
    `|${table.columns.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
    ...table.rows.map((row) => `| ${row.map((c) => formatCell(c, decimals)).join(' | ')} |`),
  ];
  return [`**${table.title}**`, '', ...lines].join('\n');
}

function targetLines(target: TargetCheck): string[] {
  const lines = [
    `- ${target.met ? '✅ met' : '❌ missed'} — ${target.target}: measured ${target.measured}${target.shortfall ? ` (short by ${target.shortfall})` : ''}.`,
  ];
  if (target.explanation) lines.push(`  - ${target.explanation}`);
  if (target.profile) {
    const places = target.profile.byPlace
      .slice(0, 8)
      .map((e) => `${e.name} ${e.percent.toFixed(1)} %`)
      .join(', ');
    const fns = target.profile.topFunctions
      .slice(0, 8)
      .map((e) => `\`${e.name}\` ${e.percent.toFixed(1)} %`)
      .join('; ');
    const inclusive = target.profile.inclusiveByPlace
      .slice(0, 10)
      .map((e) => `${e.name} ${e.percent.toFixed(0)} %`)
      .join(', ');
    lines.push(
      `  - Profile (\`node --cpu-prof\` on the project's service after a warm-up, ${target.profileRequest?.workload ?? ''}; ${target.profile.busyMs.toFixed(0)} ms busy CPU). Self time by place: ${places}.`,
    );
    lines.push(`  - Time with the place anywhere on the stack (callees included): ${inclusive}.`);
    lines.push(`  - Hottest functions (self time): ${fns}.`);
  }
  return lines;
}

function sectionMarkdown(section: Section): string {
  const parts = [`## ${section.id}. ${section.title}`, ''];
  for (const table of section.tables) parts.push(markdownTable(table), '');
  if (section.targets.length)
    parts.push('Targets:', '', ...section.targets.flatMap(targetLines), '');
  if (section.notes.length) parts.push(...section.notes.map((n) => `- ${n}`), '');
  if (section.commands.length) {
    parts.push(
      'Systems started for this scenario (exact command lines):',
      '',
      '```',
      ...section.commands,
      '```',
      '',
    );
  }
  return parts.join('\n');
}

/** The report's markdown; `chartFile` is the throughput chart's path relative to it. */
export function reportMarkdown(
  report: BenchReport,
  sections: Section[],
  chartFile: string | undefined,
): string {
  const facts = Object.entries(report.machine).map(([k, v]) => `| ${k} | ${v} |`);
  const summary = sections.flatMap((s) =>
    s.targets.map(
      (t) =>
        `| ${s.id} | ${t.target} | ${t.measured} | ${t.met ? 'met' : `missed${t.shortfall ? ` (short by ${t.shortfall})` : ''}`} |`,
    ),
  );
  return [
    "# Benchmarks: the project vs the frameworks' own API servers",
    '',
    ...(chartFile
      ? [
          `![Throughput against concurrency, each service beside its peer](${chartFile})`,
          '',
          `Throughput against concurrency, from scenarios 1 and 2 below (log scales; the frameworks' own servers dashed): [${chartFile}](${chartFile}).`,
          '',
        ]
      : []),
    `Produced by \`${report.command}\` (scale \`${report.scale}\`), started ${report.startedAt}, took ${(report.durationMs / 60_000).toFixed(1)} min.`,
    'Quote the ratios, not the absolute times: the machine is shared and noisy. Every system gets the same provider emulator',
    '(one child process, latency 0 unless stated) and the same graph or agent tree, and is driven by the same keep-alive HTTP client.',
    '',
    '| machine | |',
    '| --- | --- |',
    ...facts,
    '',
    '## Targets at a glance',
    '',
    '| scenario | target | measured | result |',
    '| --- | --- | --- | --- |',
    ...summary,
    '',
    ...sections.map(sectionMarkdown),
  ].join('\n');
}

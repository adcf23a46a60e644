import type { ScenarioResult } from '../scenarios/results.js';
import { a2aChatSection, a2aChatTargets } from './a2a-chat-section.js';
import { emailLifecycleSection, emailLifecycleTargets } from './email-lifecycle-section.js';
import { frameworkPatchesSection, frameworkPatchesTargets } from './framework-patches-section.js';
import { observabilitySection, observabilityTargets } from './observability-section.js';
import { webhooksSection, webhooksTargets } from './webhooks-section.js';
import { helpCenterSection, helpCenterTargets } from './help-center-section.js';
import { guidelinesSection, guidelinesTargets } from './guidelines-section.js';
import { growthSection, growthTargets } from './growth-section.js';
import { helpdeskChatSection, helpdeskChatTargets } from './helpdesk-chat-section.js';
import { helpdeskSessionsSection, helpdeskSessionsTargets } from './helpdesk-sessions-section.js';
import { reportMarkdown } from './markdown.js';
import { providerOverheadSection, providerOverheadTargets } from './provider-overhead-section.js';
import { streamingSection, streamingTargets } from './streaming-section.js';
import {
  profileKey,
  type BenchReport,
  type ScenarioOutcome,
  type Section,
  type TargetCheck,
} from './report-model.js';
import { throughputChartSvg, throughputPanels } from './throughput-chart.js';

/** Judges a scenario's targets (missed ones carry the workload to profile under). */
export function judgeTargets(result: ScenarioResult): TargetCheck[] {
  switch (result.scenario) {
    case 1:
      return emailLifecycleTargets(result);
    case 2:
      return helpdeskChatTargets(result);
    case 3:
      return providerOverheadTargets(result);
    case 4:
      return growthTargets(result);
    case 5:
      return frameworkPatchesTargets(result);
    case 6:
      return helpdeskSessionsTargets(result);
    case 7:
      return streamingTargets(result);
    case 8:
      return observabilityTargets(result);
    case 9:
      return a2aChatTargets(result);
    case 10:
      return webhooksTargets(result);
    case 11:
      return helpCenterTargets(result);
    case 12:
      return guidelinesTargets(result);
  }
}

function layOut(result: ScenarioResult): Section {
  switch (result.scenario) {
    case 1:
      return emailLifecycleSection(result);
    case 2:
      return helpdeskChatSection(result);
    case 3:
      return providerOverheadSection(result);
    case 4:
      return growthSection(result);
    case 5:
      return frameworkPatchesSection(result);
    case 6:
      return helpdeskSessionsSection(result);
    case 7:
      return streamingSection(result);
    case 8:
      return observabilitySection(result);
    case 9:
      return a2aChatSection(result);
    case 10:
      return webhooksSection(result);
    case 11:
      return helpCenterSection(result);
    case 12:
      return guidelinesSection(result);
  }
}

/** A scenario's tables, notes and judged targets, with the profiles taken for its misses. */
export function scenarioSection(outcome: ScenarioOutcome): Section {
  if (!('result' in outcome)) {
    return {
      id: outcome.id,
      title: `${outcome.title} — FAILED`,
      tables: [],
      targets: [],
      commands: [],
      notes: [`The scenario failed: ${outcome.error}`],
    };
  }
  const section = layOut(outcome.result);
  for (const target of section.targets) {
    const profile = target.profileRequest && outcome.profiles[profileKey(target.profileRequest)];
    if (profile) target.profile = profile;
  }
  return section;
}

export interface RenderedReport {
  sections: Section[];
  markdown: string;
  /** Throughput against concurrency; absent when neither scenario 1 nor 2 ran. */
  chartSvg?: string;
}

/** The whole report: the chart (linked as `chartFile`, relative to the markdown) and every section. */
export function renderReport(report: BenchReport, chartFile: string): RenderedReport {
  const sections = report.scenarios.map(scenarioSection);
  const panels = throughputPanels(
    report.scenarios.flatMap((s) => ('result' in s ? [s.result] : [])),
  );
  const chartSvg = panels.length ? throughputChartSvg(panels) : undefined;
  return {
    sections,
    markdown: reportMarkdown(report, sections, chartSvg ? chartFile : undefined),
    ...(chartSvg ? { chartSvg } : {}),
  };
}

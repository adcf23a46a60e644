import type { Tracing } from '@repo/http-kit';
import type OpenAI from 'openai';
import type { Registry } from 'prom-client';
import type { MailTransport } from '../delivery/mail-transport.js';
import type { ThreadStore } from '../threads/thread-store.js';
import { emailReviewMetrics } from './email-review-metrics.js';
import { GraphSpans } from './graph-spans.js';
import { modelCallFetch } from './model-call-fetch.js';
import { tracedTransport } from './traced-transport.js';

/**
 * Metrics (with a registry) and traces (with tracing on) for the service: each of its dependencies
 * as it is when neither is on, or wrapped to feed them.
 */
export function emailReviewTelemetry(options: {
  registry?: Registry | undefined;
  tracing?: Tracing | undefined;
  threads: ThreadStore;
}) {
  const metrics = options.registry && emailReviewMetrics(options.registry, options.threads);
  const tracing = options.tracing?.enabled ? options.tracing : undefined;
  const graphSpans = tracing && new GraphSpans();
  return {
    model(llm: OpenAI): OpenAI {
      if (!metrics && !graphSpans) return llm;
      const fetch = modelCallFetch({
        report: metrics?.recordModelCall,
        tracing: graphSpans && {
          captureContent: tracing.captureContent,
          parent: () => graphSpans.contextOfCurrentNode(),
        },
      });
      return llm.withOptions({ fetch });
    },
    /** The graph with its spans' callbacks in every run's config. */
    graph<G extends { withConfig(config: { callbacks: GraphSpans[] }): G }>(graph: G): G {
      return graphSpans ? graph.withConfig({ callbacks: [graphSpans] }) : graph;
    },
    deliveryAttempt: metrics?.recordDeliveryAttempt,
    transport: (transport: MailTransport) => (tracing ? tracedTransport(transport) : transport),
  };
}

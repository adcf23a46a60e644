import type { FrameworkPatch } from './framework-patch.js';

/**
 * The repository's one register of framework patches: every place where code of this repository
 * reaches into a library's internals (or leans on behaviour the library does not promise), in any
 * app or package, and every span written by hand where no maintained instrumentation gives it
 * (`gain` says why none does). Paths are from the repository root; `library` resolves from the package that
 * holds `file`. packages/http-kit/test/framework-patches.test.ts fails when a file or a guarding
 * test is gone, when an installed version moves away from `version` (re-check the patch, then
 * update it here), or when a file in a `src/patches/` folder is not listed. It lives in http-kit
 * because both services, the bench and that one test already depend on http-kit.
 */
export const FRAMEWORK_PATCHES: FrameworkPatch[] = [
  {
    id: 'langgraph-checkpoint-postgres-one-row-checkpoints',
    library: '@langchain/langgraph-checkpoint-postgres',
    version: '1.0.5',
    file: 'apps/email-review/src/patches/langgraph-checkpoint-postgres-one-row-checkpoints.ts',
    touches:
      'PostgresSaver#put and #putWrites (overridden, one statement each, on the pool or on a caller’s transaction client) and _loadCheckpoint (extended), getTuple (answers none without a statement for a run its creating request flags NEW_THREAD), through the protected _dumpMetadata, _dumpCheckpoint and _dumpWrites helpers and the column positions of the write rows; the private SQL_STATEMENTS.SELECT_SQL, whose blob join is skipped for rows that carry their values; a checkpoint is one row, its channel values inside the checkpoint jsonb (the stock saver cannot read them; it reads the stock rows of threads paused before the patch)',
    gain: 'bench scenario 1 with decisions as ordinary transactions, three runs of three memory/PostgreSQL pairs at concurrency 8 each way on a loaded machine (2026-11-27): PostgreSQL at a median 71 % of memory mode with the patch (72, 65, 77 % per run) against 56 % with the stock saver (53, 68, 56 %), +27 %; 10 rows written per lifecycle instead of 24',
    guardedBy: [
      'apps/email-review/test/framework-patches.test.ts',
      'apps/email-review/test/durability.test.ts',
    ],
  },
  {
    id: 'pg-pool-outage-guard',
    library: 'pg',
    version: '8.23.1',
    file: 'packages/pg-kit/src/guarded-pool.ts',
    touches:
      'no method of pg replaced: GuardedPool subclasses pg.Pool (query, connect) and its clients subclass the pool’s Client through pg-pool’s Client option; leans on pg-pool calling its own connect and client.query in callback style (they pass through unguarded) and on its release destroying a client that was ended (after a query found the database away) or that pg marked unqueryable (a dropped connection), checks pg-pool does on its private _ending and _queryable',
    gain: 'function: a database that cannot be reached answers 503 database_unavailable with Retry-After wherever both services meet it, the outage is logged once, and a client whose connection dropped is destroyed rather than reused',
    guardedBy: [
      'packages/pg-kit/test/guarded-pool.test.ts',
      'apps/email-review/test/database-faults.test.ts',
      'apps/helpdesk/test/database-down.test.ts',
      'apps/email-review/test/database-pools.test.ts',
    ],
  },
  {
    id: 'pg-boss-queue-workers',
    library: 'pg-boss',
    version: '10.4.2',
    file: 'apps/email-review/src/jobs/queue-workers.ts',
    touches:
      'replaces PgBoss#work (whose manager.js onFetch neither awaits nor catches the complete/fail after a job) with loops on the public fetch, complete and fail, for every queue of the one pg-boss (jobs/job-runner.ts: model work, deliveries, their dead letters, retention)',
    gain: 'function: a database outage during a delivery or a retention pass no longer ends the process with an unhandled rejection (checked again 2026-11-27: with PgBoss#work in jobs/job-runner.ts instead, delivery-crash’s “PostgreSQL stops in the middle of an SMTP exchange” fails, the service exiting with code 1)',
    guardedBy: ['apps/email-review/test/delivery-crash.test.ts'],
  },
  {
    id: 'langgraph-graph-spans',
    library: '@langchain/core',
    version: '1.4.0',
    file: 'apps/email-review/src/telemetry/graph-spans.ts',
    touches:
      'public API only: a BaseTracer (@langchain/core/tracers/base) given to the graph as a callback, the langgraph_node/langgraph_step metadata on its runs, and @langchain/langgraph’s getConfig() to find the node a model call runs in',
    gain: 'hand-written spans: graph and node spans, each model call under its node. The maintained @arizeai/openinference-instrumentation-langchain@4.1.1 patches CallbackManager._configureSync (private), makes a span of every runnable with OpenInference attributes (the graph state as input.value unless hidden), and cannot put a model call made with the OpenAI SDK under its node',
    guardedBy: ['apps/email-review/test/tracing.test.ts'],
  },
  {
    id: 'openai-model-call-spans',
    library: 'openai',
    version: '7.57.0',
    file: 'apps/email-review/src/telemetry/model-call-fetch.ts',
    touches:
      'public API only: the client’s fetch option (client.withOptions({ fetch })), one span per HTTP attempt',
    gain: 'hand-written spans: @opentelemetry/instrumentation-openai (every release to 0.22.0) supports openai >=4.19 <7 and so patches nothing of openai 7 (0.22.0 also needs @opentelemetry/api 1.10, instrumentation 0.300 and Node 22.15; here 1.9.0, 0.205.0, Node 20), and records chat messages as log events, not on the span; @arizeai/openinference-instrumentation-openai@4.2.7 supports openai 7 but writes OpenInference attributes (llm.*, the whole request as input.value by default) instead of gen_ai.*',
    guardedBy: ['apps/email-review/test/tracing.test.ts'],
  },
  {
    id: 'smtp-delivery-spans',
    library: 'nodemailer',
    version: '10.6.0',
    file: 'apps/email-review/src/telemetry/traced-transport.ts',
    touches: 'nothing of nodemailer: the service’s own MailTransport, wrapped',
    gain: 'hand-written spans: a span per delivery attempt (SMTP or log); no maintained instrumentation of nodemailer or SMTP exists',
    guardedBy: ['apps/email-review/test/tracing.test.ts'],
  },
  {
    id: 'adk-gemini-base-url',
    library: '@google/adk',
    version: '1.2.0',
    file: 'apps/helpdesk/src/patches/adk-gemini-base-url.ts',
    touches: 'Gemini.getHttpOptions (protected; adds baseUrl)',
    gain: 'function, not speed: ADK 1.2.0 has no option for the Gemini base URL, so without it the agents cannot reach AGENT_LLM_BASE_URL (an emulator, a proxy, Vertex-compatible gateways)',
    guardedBy: ['apps/helpdesk/test/startup.test.ts'],
  },
  {
    id: 'adk-gemini-call-policy',
    library: '@google/adk',
    version: '1.2.0',
    file: 'apps/helpdesk/src/patches/adk-gemini-call-policy.ts',
    touches: 'Gemini.generateContentAsync (deadline, retries, typed error response)',
    gain: 'function, not speed: the deadline, bounded retries and 502/504 answers; without it a hung model holds a turn forever and every failure is a 502',
    guardedBy: [
      'apps/helpdesk/test/model-faults.test.ts',
      'apps/helpdesk/test/model-retry.test.ts',
    ],
  },
  {
    id: 'adk-span-content',
    library: '@google/adk',
    version: '1.2.0',
    file: 'apps/helpdesk/src/telemetry/adk-span-content.ts',
    touches:
      'the ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS environment variable, read by ADK on each span (telemetry/tracing.js, shouldAddRequestResponseToSpans; default "true"), set process-wide to follow OTEL_CAPTURE_CONTENT',
    gain: 'function: no prompt, reply or tool text on ADK’s spans unless OTEL_CAPTURE_CONTENT=true',
    guardedBy: ['apps/helpdesk/test/tracing.test.ts'],
  },
  {
    id: 'adk-model-call-spans',
    library: '@google/adk',
    version: '1.2.0',
    file: 'apps/helpdesk/src/telemetry/observed-model.ts',
    touches: 'public API only: a BaseLlm around the agents’ model (Gemini or OpenAI-compatible)',
    gain: 'hand-written spans: a GenAI span per model call, under ADK’s call_llm. ADK’s own call_llm has the model and the tokens but names every provider gen_ai.system=gcp.vertex.agent and lasts until the tools and the agent transferred to have run; no maintained instrumentation covers @google/genai, and those of the openai SDK do not support openai 7 (openai-model-call-spans)',
    guardedBy: ['apps/helpdesk/test/tracing.test.ts', 'apps/helpdesk/test/tracing-process.test.ts'],
  },
  {
    id: 'express-router-stack',
    library: 'express',
    version: '5.3.0',
    file: 'packages/http-kit/src/middleware/method-not-allowed.ts',
    touches:
      'Router#stack (undocumented): each layer’s match(path) and route.methods, to find the methods a path has',
    gain: 'function: 405 with Allow for a known path and a wrong method, where Express answers 404',
    guardedBy: ['packages/http-kit/test/define-route.test.ts'],
  },
  {
    id: 'prom-client-default-metrics-without-gc',
    library: 'prom-client',
    version: '15.1.3',
    file: 'packages/http-kit/src/patches/prom-client-default-metrics-without-gc.ts',
    touches:
      'the per-metric collectors under prom-client/lib/metrics/ (internal paths), named by the public collectDefaultMetrics.metricsList; gc is not started',
    gain: 'bench scenario 8: metrics on at 91–95 % of metrics off with the GC observer, 94–105 % without it (2026-11-24)',
    guardedBy: ['packages/http-kit/test/metrics.test.ts'],
  },
  {
    id: 'opentelemetry-instrumentation-module-patches',
    library: '@opentelemetry/instrumentation',
    version: '0.205.0',
    file: 'packages/http-kit/src/tracing/library-instrumentations.ts',
    touches:
      'InstrumentationBase#getModuleDefinitions (public, marked experimental): each definition’s patch/unpatch applied to the http, https and pg module objects (and pg-pool’s Pool, as the superclass of pg’s Pool) instead of through require/import hooks',
    gain: 'function: the standard HTTP and PostgreSQL spans for ESM services started with node dist/server.js and for apps built inside jest, without a loader flag',
    guardedBy: [
      'packages/http-kit/test/tracing.test.ts',
      'packages/pg-kit/test/transactions-and-spans.test.ts',
    ],
  },
  {
    id: 'minisearch-top-hits',
    library: 'minisearch',
    version: '7.2.0',
    file: 'packages/knowledge/src/store/minisearch-top-hits.ts',
    touches:
      'MiniSearch’s private index (_index.get, atPrefix, fuzzyGet) and document tables (_fieldIds, _fieldLength, _avgFieldLength, _documentCount, _nextId, _storedFields), scored with its default BM25 parameters into score arrays kept per index (field lengths copied from _fieldLength, and each query term’s scored postings, once per change of _nextId or _documentCount); falls back to the public search when those fields are missing',
    gain: 'a draft’s email search at 10,000 articles 5.7–6.0 → 1.7 ms p50 (its search built and sorted an object per match: 78 % of the time in a cpu profile); bench scenario 11, memory: the draft’s added time +9.0 → +4.1–5.9 ms p50 on a loaded machine (2026-11-27); same top 5 and scores as the public search on 13 questions. Field lengths from one array and score arrays reused: CPU per draft-email search 6.1–9.6 → 1.3–1.7 ms, GC pauses 0.4–0.5 → 0.05–0.08 ms per search (load 15–22); search 24 % → 8 % of email-review’s CPU in lifecycles with the help center (cpu profiles, 2026-11-27). Each term’s postings kept until the index changes: CPU per bench email search 0.47–0.80 → 0.14–0.37 ms (load ~10, 2026-11-27)',
    guardedBy: [
      'packages/knowledge/test/memory-knowledge-base.test.ts',
      'packages/knowledge/test/help-center.test.ts',
    ],
  },
];

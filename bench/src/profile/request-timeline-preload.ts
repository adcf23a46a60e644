/**
 * Loaded into a project service with `node --import` during scenario 3 (never in production):
 * timestamps each HTTP request the service serves and each model call it makes, from Node's own
 * diagnostics channels (the SDKs reach the provider through fetch, that is undici). On SIGUSR2 it
 * writes the spans finished since the last read to the file `timelineFile(pid)` names, and starts
 * afresh. Recording is two `performance.now()` calls and a push per span.
 */
import { subscribe } from 'node:diagnostics_channel';
import { renameSync, writeFileSync } from 'node:fs';
import { timelineFile, type TimelineSpan } from './request-timeline.js';

let spans: TimelineSpan[] = [];
const open = new WeakMap<object, TimelineSpan>();

function begin(kind: TimelineSpan['kind'], key: object): void {
  const span: TimelineSpan = { kind, start: performance.now(), end: Number.NaN };
  open.set(key, span);
  spans.push(span);
}

function finish(key: object): void {
  const span = open.get(key);
  if (span) span.end = performance.now();
}

subscribe('http.server.request.start', (m) =>
  begin('request', (m as { response: object }).response),
);
subscribe('http.server.response.finish', (m) => finish((m as { response: object }).response));
subscribe('undici:request:create', (m) => begin('call', (m as { request: object }).request));
subscribe('undici:request:trailers', (m) => finish((m as { request: object }).request));
subscribe('undici:request:error', (m) => {
  const span = open.get((m as { request: object }).request);
  if (span) spans.splice(spans.indexOf(span), 1);
});

process.on('SIGUSR2', () => {
  const file = timelineFile(process.pid);
  const done = spans.filter((s) => Number.isFinite(s.end));
  spans = spans.filter((s) => !Number.isFinite(s.end));
  writeFileSync(`${file}.tmp`, JSON.stringify(done));
  renameSync(`${file}.tmp`, file);
});

import type pg from 'pg';
import type { Registry } from 'prom-client';
import { PostgresQualityLedger } from './postgres-quality-ledger.js';
import { MemoryQualityLedger } from './quality-ledger.js';
import { qualityMetrics } from './quality-metrics.js';
import { qualityRoutes } from './quality-routes.js';

/** Draft quality: the decisions' ledger (PostgreSQL or memory), GET /quality and the gauges. */
export function openDraftQuality(deps: {
  database?: { pool: pg.Pool; schema: string } | undefined;
  registry?: Registry | undefined;
}) {
  const ledger = deps.database
    ? new PostgresQualityLedger(deps.database.pool, deps.database.schema)
    : new MemoryQualityLedger();
  if (deps.registry) qualityMetrics(deps.registry, ledger);
  return { ledger, routes: qualityRoutes(ledger) };
}

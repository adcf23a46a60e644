import { leftoverSchemas, recordedSchemas } from './schema-ledger.mjs';

/** jest globalTeardown: fails the run when a schema it created (or a `_pgboss` one derived from it) is still there. */
export default async function schemaLedgerTeardown() {
  const left = await leftoverSchemas(recordedSchemas());
  if (left.length > 0)
    throw new Error(
      `This test run left ${left.length} schema(s) in the test database: ${left.join(', ')}. Tests remove what they create.`,
    );
}

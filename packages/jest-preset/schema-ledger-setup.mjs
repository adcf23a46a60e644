import { clearLedger } from './schema-ledger.mjs';

/** jest globalSetup: a run starts with an empty ledger. */
export default function schemaLedgerSetup() {
  clearLedger();
}

import type { FaultQueue } from '../control/faults.js';
import type { RequestLog } from '../control/request-log.js';

/** The emulator's mutable state, shared by the request pipeline, the admin API and the in-process handle. */
export interface EmulatorState {
  faults: FaultQueue;
  log: RequestLog;
  latencyMs: number;
}

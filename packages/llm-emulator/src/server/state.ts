import type { FaultQueue } from '../control/faults.js';
import type { RequestLog } from '../control/request-log.js';

/** The emulator's mutable state, shared by the request pipeline, the admin API and the in-process handle. */
export interface EmulatorState {
  faults: FaultQueue;
  log: RequestLog;
  latencyMs: number;
  /** Pause between the events of a streamed answer (0: all at once), so clients see text arrive in steps. */
  chunkIntervalMs: number;
}

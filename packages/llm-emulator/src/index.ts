export { startEmulator, type Emulator, type EmulatorOptions } from './emulator.js';
export { faultSpecSchema, type Fault, type FaultSpec, type Provider } from './control/faults.js';
export type { LoggedRequest } from './control/request-log.js';

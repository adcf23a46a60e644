/**
 * Advisory-lock key spaces of this service (first key; the second is 0), apart from
 * email-review's ('EMLR', 'EMLS') when both share a database. Turns take no advisory lock:
 * they take a session's lease (sessions/session-leases.ts).
 */
export const SETUP_LOCK = [0x48445355, 0] as const; // 'HDSU': the schema set-up
export const SWEEP_LOCK = [0x48445357, 0] as const; // 'HDSW': the TTL sweep, one instance at a time
export const EVENTS_LOCK = [0x48444556, 0] as const; // 'HDEV': conversation events, ids in commit order

/**
 * Advisory-lock key spaces of this service (first key; the second is a hash or 0), apart from
 * email-review's ('EMLR', 'EMLS') when both share a database.
 */
export const SESSION_LOCK_SPACE = 0x48445353; // 'HDSS': one lock per session, held for a turn
export const SETUP_LOCK = [0x48445355, 0] as const; // 'HDSU': the schema set-up
export const SWEEP_LOCK = [0x48445357, 0] as const; // 'HDSW': the TTL sweep, one instance at a time

import { z } from 'zod';

export const DEFAULT_KB_SCHEMA = 'knowledge';

/**
 * The variables of a service's help center, for its env.ts to spread into its schema:
 * `KB_DIR`, a folder of markdown articles loaded at start and watched (unset: none), and
 * `KB_SCHEMA`, the knowledge base's schema with a database (default `knowledge`: services on
 * one database and schema share one knowledge base).
 */
export const knowledgeEnv = () => ({
  KB_DIR: z
    .string()
    .optional()
    .transform((value) => value?.trim() || undefined),
  KB_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier')
    .default(DEFAULT_KB_SCHEMA),
});

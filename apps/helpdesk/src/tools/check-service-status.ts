import type { ToolOptions } from '@google/adk';
import { z } from 'zod';
import { SERVICES } from './data/services.js';
import { SourceUnavailable, type ServiceStatus, type ServiceStatusSource } from './tool-sources.js';

const KNOWN = SERVICES.map((s) => s.service);

const checkServiceStatusParameters = z.object({
  service: z
    .string()
    .min(1)
    .max(64)
    .describe(`The service to check: one of ${KNOWN.join(', ')}.`),
});

export type ServiceStatusCheck =
  | ({ found: true } & ServiceStatus)
  | {
      found: false;
      service: string;
      known_services: string[];
      message: string;
      unavailable?: true;
    };

/**
 * Reports whether a service is up. Names are matched loosely ("the API", "API service" → api),
 * since the model passes what the user wrote.
 */
export function checkServiceStatus({
  service,
}: z.infer<typeof checkServiceStatusParameters>): ServiceStatusCheck {
  const wanted = service.trim().toLowerCase();
  const words = new Set(wanted.split(/[^a-z0-9]+/).filter(Boolean));
  const match =
    SERVICES.find((s) => s.service === wanted) ?? SERVICES.find((s) => words.has(s.service));
  if (match) return { found: true, ...match };
  return {
    found: false,
    service: service.trim(),
    known_services: KNOWN,
    message: `No service named "${service.trim()}". Known services: ${KNOWN.join(', ')}.`,
  };
}

/** The in-repo services with their loose name matching (the default source). */
export const staticServices: ServiceStatusSource = {
  check: async (service) => checkServiceStatus({ service }),
};

/** The tool over `source` (agents/specialists.ts); one that does not answer is said to the model. */
export const checkServiceStatusTool = (
  source: ServiceStatusSource,
): ToolOptions<typeof checkServiceStatusParameters> => ({
  name: 'check_service_status',
  description: 'Tells whether a service is operational, degraded or in an outage, with a message.',
  parameters: checkServiceStatusParameters,
  execute: async ({ service }): Promise<ServiceStatusCheck> => {
    try {
      return await source.check(service);
    } catch (error) {
      if (!(error instanceof SourceUnavailable)) throw error;
      return {
        found: false,
        service: service.trim(),
        known_services: [],
        unavailable: true,
        message: 'The status system is not answering right now; the service’s status is unknown.',
      };
    }
  },
});

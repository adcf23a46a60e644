import type { ServiceStatus } from '../tool-sources.js';

/** The services `check_service_status` reports on: static, in-repo data standing in for a status page. */
export const SERVICES: readonly ServiceStatus[] = [
  { service: 'api', status: 'operational', message: 'All API endpoints are responding normally.' },
  {
    service: 'dashboard',
    status: 'degraded',
    message: 'The dashboard is slow to load reports; a fix is rolling out.',
  },
  {
    service: 'email',
    status: 'outage',
    message: 'Outgoing email is delayed; the team is restoring the mail relay.',
  },
  {
    service: 'billing',
    status: 'operational',
    message: 'Payments and invoicing are working normally.',
  },
  {
    service: 'storage',
    status: 'operational',
    message: 'File uploads and downloads are working normally.',
  },
];

import { createServer } from 'node:net';
import { DEMO_HOST, type ServiceSpec } from './service-plan.js';

/**
 * Why `port` cannot be listened on right now (the error code of the same bind the service would make, e.g.
 * EADDRINUSE), or undefined when it is free.
 */
async function bindError(port: number): Promise<string | undefined> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    server.listen(port, DEMO_HOST, () => server.close(() => resolve(undefined)));
  });
}

/**
 * One line per port the services cannot have, naming the variable that moves it; empty when all are free. Checked
 * before anything starts: a port held by another process would otherwise answer the health check (the demo would
 * announce "Ready.") while the service itself dies with EADDRINUSE.
 */
export async function portProblems(services: ServiceSpec[]): Promise<string[]> {
  const problems: string[] = [];
  const seen = new Map<number, ServiceSpec>();
  for (const service of services) {
    const other = seen.get(service.port);
    if (other) {
      problems.push(
        `${other.portVariable} and ${service.portVariable} are both ${service.port}: give each service its own port`,
      );
      continue;
    }
    seen.set(service.port, service);
    const code = await bindError(service.port);
    if (code === undefined) continue;
    const why = code === 'EADDRINUSE' ? 'is in use by another process' : `cannot be used (${code})`;
    problems.push(
      `port ${service.port} for ${service.name} ${why}: stop that process or set ${service.portVariable} to a free port`,
    );
  }
  return problems;
}

import { freePort } from '../net/free-port.js';
import { JsonClient } from '../net/json-client.js';
import { childEnv } from '../processes/child-env.js';
import { launchService, type ServiceProcess } from '../processes/child-service.js';
import { paths } from '../repo-paths.js';

/** One provider request as the emulator logged it (the fields the bench reads). */
export interface EmulatorRequest {
  provider: 'openai' | 'gemini';
  path: string;
  body: unknown;
  status: number;
  at: string;
}

/**
 * The provider emulator in a process of its own, so that its work does not share the load
 * generator's event loop. Every system under test is pointed at this one instance.
 */
export class EmulatorProcess {
  private constructor(
    readonly url: string,
    readonly process: ServiceProcess,
    private readonly control: JsonClient,
  ) {}

  static async start(latencyMs = 0): Promise<EmulatorProcess> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const proc = await launchService({
      name: 'llm-emulator',
      command: process.execPath,
      args: [paths.emulatorCli, '--port', String(port), '--latency', String(latencyMs)],
      env: childEnv({}),
      readyUrl: `${url}/_emulator/health`,
    });
    return new EmulatorProcess(url, proc, new JsonClient(url, 4));
  }

  get openAiBaseUrl(): string {
    return `${this.url}/v1`;
  }

  async setLatency(latencyMs: number): Promise<void> {
    await this.control.expect('PUT', '/_emulator/latency', { latencyMs }, [200]);
  }

  async clearRequests(): Promise<void> {
    await this.control.expect('DELETE', '/_emulator/requests', undefined, [204]);
  }

  async requests(): Promise<EmulatorRequest[]> {
    return (await this.control.expect(
      'GET',
      '/_emulator/requests',
      undefined,
      [200],
    )) as EmulatorRequest[];
  }

  async stop(): Promise<void> {
    this.control.close();
    await this.process.stop();
  }
}

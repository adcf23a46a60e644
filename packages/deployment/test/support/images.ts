import { appEnv, emulatorEnv } from './app-env.js';

/** An image the root Dockerfile makes, with the build arguments and target docker-compose.yml gives it. */
export interface Image {
  /** The compose service. */
  service: string;
  /** The package's folder. */
  dir: string;
  /** The package's name: the APP build argument. */
  name: string;
  /** The Dockerfile stage that is the image. */
  target: string;
  /** The port the package listens on by default. */
  port: number;
}

export const IMAGES: Image[] = [
  {
    service: 'email-review',
    dir: 'apps/email-review',
    name: 'email-review',
    target: 'app',
    port: appEnv('email-review').defaultPort,
  },
  {
    service: 'helpdesk',
    dir: 'apps/helpdesk',
    name: 'helpdesk',
    target: 'app',
    port: appEnv('helpdesk').defaultPort,
  },
  {
    service: 'llm-emulator',
    dir: 'packages/llm-emulator',
    name: '@repo/llm-emulator',
    target: 'llm-emulator',
    port: emulatorEnv().defaultPort,
  },
];

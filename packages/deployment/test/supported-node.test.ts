import { readRepoFile } from './support/repo.js';

/**
 * Node's LTS lines that are still supported (nodejs.org/en/about/previous-releases): 22 until April 2027, 24 until
 * April 2028. Node 20 reached its end in April 2026; a line leaves this list when it reaches its own.
 */
const SUPPORTED_LTS = [22, 24];

interface RootPackageJson {
  engines?: { node?: string };
}

const root = JSON.parse(readRepoFile('package.json')) as RootPackageJson;
const imageMajor = Number(
  /^ARG NODE_IMAGE=node:(\d+)-bookworm-slim$/m.exec(readRepoFile('Dockerfile'))?.[1],
);

describe('a supported Node', () => {
  test('when the images are built, then they run on a Node LTS line that is still supported', () => {
    expect(SUPPORTED_LTS).toContain(imageMajor);
  });

  test("when package.json states the Node it runs on, then engines admits the images' line", () => {
    const alternatives = (root.engines?.node ?? '').split('||').map((range) => range.trim());
    expect(alternatives).toContainEqual(
      expect.stringMatching(new RegExp(`^\\^${imageMajor}\\.\\d+\\.\\d+$`)),
    );
  });
});

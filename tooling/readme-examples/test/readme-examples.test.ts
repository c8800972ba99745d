// Every ```js and ```ts block of the repository's READMEs (the root one, packages/* and apps/*)
// runs as a program from its package's folder: exit code 0, nothing left in its private TMPDIR,
// and each `// prints: TEXT` found in stdout in order. One test per block, named by README path
// and fence line. Packages must be built first (`pnpm test` builds before it tests).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  describeFailure,
  findReadmes,
  readmeBlocks,
  runBlock,
  runProblems,
  workspaceRoot,
} from '../src/index.js';

const root = workspaceRoot(fileURLToPath(new URL('.', import.meta.url)));
const readmes = findReadmes(root).map((readme) => ({ readme, blocks: readmeBlocks(readme) }));

it('finds README examples to run', () => {
  expect(readmes.reduce((n, r) => n + r.blocks.length, 0)).toBeGreaterThan(0);
});

for (const { readme, blocks } of readmes) {
  if (blocks.length === 0) continue;
  describe(readme.path, () => {
    for (const block of blocks) {
      it(`${readme.path}:${block.line} (${block.lang})`, async () => {
        const run = await runBlock(block, { dir: readme.dir, readme: readme.path });
        const problems = runProblems(block, run, { dir: readme.dir });
        if (problems.length > 0) expect.fail(describeFailure(problems, run));
      });
    }
  });
}

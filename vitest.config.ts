import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Whole-repo runs (`pnpm test:unit`, the IDE): every package and app is a project with its own
// config, and so are the two tools that have tests (the repository scripts and the README-example
// harness). One test file per core: vitest's default leaves one core idle, which on a two-core
// machine runs the files one at a time.
export default defineConfig({
  test: {
    maxWorkers: availableParallelism(),
    projects: ['packages/*', 'apps/*', 'tooling/scripts', 'tooling/readme-examples'],
  },
});

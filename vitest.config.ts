import { defineConfig } from 'vitest/config';

// Whole-repo runs (`pnpm test:unit`, the IDE): every package and app is a project with its own
// config, and so are the two tools that have tests (the repository scripts and the README-example
// harness).
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'tooling/scripts', 'tooling/readme-examples'],
  },
});

import { defineConfig } from 'vitest/config';

// Whole-repo runs (`pnpm test:unit`, the IDE): every package and app is a project with its own config.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
  },
});

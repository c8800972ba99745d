import { libraryConfig } from '@enginekit/tsup-config';
import { defineConfig } from 'tsup';

export default defineConfig(
  libraryConfig({
    entry: { index: 'src/index.ts', cli: 'src/cli.ts', 'cli-worker': 'src/cli-worker.ts' },
    formats: ['esm'],
  }),
);

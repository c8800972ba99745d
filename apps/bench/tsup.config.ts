import { libraryConfig } from '@enginekit/tsup-config';
import { defineConfig } from 'tsup';

export default defineConfig(
  libraryConfig({
    entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
    formats: ['esm'],
  }),
);

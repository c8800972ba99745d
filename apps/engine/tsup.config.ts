import { libraryConfig } from '@enginekit/tsup-config';
import { defineConfig } from 'tsup';

export default defineConfig(
  libraryConfig({
    entry: {
      index: 'src/index.ts',
      cli: 'src/cli.ts',
      'cli-worker': 'src/cli-worker.ts',
      'session-worker': 'src/server/session-worker.ts',
      'sql-worker': 'src/commands/sql-worker.ts',
    },
    formats: ['esm'],
  }),
);

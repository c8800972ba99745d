import { libraryConfig } from '@enginekit/tsup-config';
import { defineConfig } from 'tsup';

export default defineConfig([
  // The library: dual ESM + CJS, with declarations.
  libraryConfig({ entry: { index: 'src/index.ts', quality: 'src/quality.ts' }, formats: ['esm', 'cjs'] }),
  // The `enginekit-prng` binary: ESM only, no declarations.
  { ...libraryConfig({ entry: { cli: 'src/cli.ts' }, formats: ['esm'] }), dts: false, clean: false },
]);

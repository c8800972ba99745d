/**
 * The enginekit tsup preset. Libraries are built to `dist/` with declarations and source maps,
 * targeting Node 20. `formats` is `['esm', 'cjs']` for dual packages and `['esm']` for the
 * ESM-only ones (their README says why).
 *
 * @param {{ entry?: string[] | Record<string, string>, formats?: ('esm' | 'cjs')[], banner?: string }} [options]
 */
export function libraryConfig(options = {}) {
  const { entry = ['src/index.ts'], formats = ['esm', 'cjs'] } = options;
  return {
    entry,
    format: formats,
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    platform: 'node',
    splitting: false,
    treeshake: true,
    outDir: 'dist',
  };
}

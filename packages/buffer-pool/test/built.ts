// The built package, for tests whose workers run it: main thread and workers then test the same
// code. The global setup (build-fresh.ts) has rebuilt dist/ from the current sources.
type Lib = typeof import('../src/index.js');

export const lib: Lib = (await import(new URL('../dist/index.js', import.meta.url).href)) as Lib;

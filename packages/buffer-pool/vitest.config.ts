import { packageProject } from '@enginekit/vitest-config';

// The worker tests run dist/: the global setup rebuilds it (and mutex-atomics') when src/ is newer.
export default packageProject('buffer-pool', { test: { globalSetup: ['test/build-fresh.ts'] } });

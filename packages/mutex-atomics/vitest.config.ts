import { packageProject } from '@enginekit/vitest-config';

// The worker tests run dist/: the global setup rebuilds it when src/ is newer.
export default packageProject('mutex-atomics', { test: { globalSetup: ['test/build-fresh.ts'] } });

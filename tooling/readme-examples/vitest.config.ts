import { packageProject } from '@enginekit/vitest-config';

// Each README block is a child process with its own timeout (see src/run-block.ts); the test's
// timeout only has to outlast it.
export default packageProject('readme-examples', { test: { testTimeout: 200_000 } });

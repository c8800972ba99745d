import { packageProject } from '@enginekit/vitest-config';

export default packageProject('engine', { test: { testTimeout: 120_000 } });

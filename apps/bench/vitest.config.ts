import { packageProject } from '@enginekit/vitest-config';

export default packageProject('bench', { test: { testTimeout: 60_000 } });

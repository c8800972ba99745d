import { packageProject } from '@enginekit/vitest-config';

export default packageProject('tpch');

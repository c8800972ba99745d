import { packageProject } from '@enginekit/vitest-config';

// The property tests take 2–4 s alone; whole-repo runs share two loaded cores, hence 60 s.
export default packageProject('btree-sampler', { test: { testTimeout: 60_000 } });

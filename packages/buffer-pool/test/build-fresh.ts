// Vitest global setup: the worker-thread tests run the built package, and so does their
// main-thread side; rebuild dist/ when src/ is newer (fails loudly if it cannot). The pool takes
// its latches from @enginekit/mutex-atomics, whose dist/ must be current too.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';

export default function setup(): void {
  const self = join(dirname(fileURLToPath(import.meta.url)), '..');
  buildFresh(self);
  buildFresh(
    dirname(createRequire(join(self, 'package.json')).resolve('@enginekit/mutex-atomics/package.json')),
  );
}

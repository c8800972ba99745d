// Vitest global setup: the worker-thread tests run the built package, and so does their
// main-thread side; rebuild dist/ when src/ is newer (fails loudly if it cannot).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';

export default function setup(): void {
  buildFresh(join(dirname(fileURLToPath(import.meta.url)), '..'));
}

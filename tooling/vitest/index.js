import { defineProject } from 'vitest/config';

/**
 * A package's vitest project: tests live in `test/**\/*.test.ts`; `name` labels the project in
 * whole-repo runs. `overrides.test` is merged into the defaults (timeouts, pools, setup files).
 *
 * @param {string} name
 * @param {{ test?: Record<string, unknown> }} [overrides]
 */
export function packageProject(name, overrides = {}) {
  return defineProject({
    test: {
      name,
      include: ['test/**/*.test.ts'],
      testTimeout: 20_000,
      hookTimeout: 20_000,
      ...(overrides.test ?? {}),
    },
  });
}

import type { UserWorkspaceConfig } from 'vitest/config';
export declare function packageProject(
  name: string,
  overrides?: { test?: Record<string, unknown> },
): UserWorkspaceConfig;

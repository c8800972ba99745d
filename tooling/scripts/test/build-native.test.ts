import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// The script finds the install next to itself, so each case copies it into a scratch root with
// a fake pnpm store holding one better-sqlite3 folder (node-gyp is linked from this install).
const script = fileURLToPath(new URL('../build-native.mjs', import.meta.url));
const nodeGyp = dirname(realpathSync(createRequire(import.meta.url).resolve('node-gyp/package.json')));

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function scratchInstall(prebuilt: boolean): string {
  const root = mkdtempSync(join(tmpdir(), 'build-native-'));
  roots.push(root);
  mkdirSync(join(root, 'tooling', 'scripts'), { recursive: true });
  copyFileSync(script, join(root, 'tooling', 'scripts', 'build-native.mjs'));
  const pkg = join(root, 'node_modules', '.pnpm', 'better-sqlite3@0.0.1', 'node_modules', 'better-sqlite3');
  mkdirSync(pkg, { recursive: true });
  symlinkSync(nodeGyp, join(root, 'node_modules', 'node-gyp'));
  if (prebuilt) {
    mkdirSync(join(pkg, 'build', 'Release'), { recursive: true });
    writeFileSync(join(pkg, 'build', 'Release', 'better_sqlite3.node'), '');
  }
  return root;
}

const run = (root: string) =>
  spawnSync(process.execPath, [join(root, 'tooling', 'scripts', 'build-native.mjs')], {
    encoding: 'utf8',
    env: { ...process.env, CI: '' },
  });

describe('build-native', () => {
  it('prints nothing when the native module is already built', () => {
    const result = run(scratchInstall(true));
    expect([result.status, result.stdout, result.stderr]).toEqual([0, '', '']);
  });

  it("fails loudly, with node-gyp's output and what the machine needs, when the build fails", () => {
    const result = run(scratchInstall(false));
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('binding.gyp not found');
    expect(result.stderr).toMatch(
      /build-native: compiling better-sqlite3@0\.0\.1 failed \(exit 1\)\. It needs a C\+\+ compiler/,
    );
  });
});

#!/usr/bin/env node
// Root postinstall: compile better-sqlite3 (the SQLite peer of the benchmarks and tests) from
// source against the Node headers installed with Node itself. Its own install script would try
// to download a prebuilt binary and then node-gyp's header tarball, which fails on a machine that
// cannot reach those hosts; `allowBuilds` in pnpm-workspace.yaml therefore turns that script off
// and this one runs node-gyp with `npm_config_nodedir` set. Already-built copies are skipped.
// It prints nothing unless the build fails; then it shows the compiler's output and what the
// machine needs.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const store = join(root, 'node_modules', '.pnpm');
if (!existsSync(store)) process.exit(0);

const prefix = join(process.execPath, '..', '..');
const env = { ...process.env };
if (!env.npm_config_nodedir && existsSync(join(prefix, 'include', 'node', 'node.h')))
  env.npm_config_nodedir = prefix;

const require = createRequire(import.meta.url);
const nodeGyp = require.resolve('node-gyp/bin/node-gyp.js', { paths: [root] });

for (const entry of readdirSync(store).filter((d) => d.startsWith('better-sqlite3@'))) {
  const dir = join(store, entry, 'node_modules', 'better-sqlite3');
  if (existsSync(join(dir, 'build', 'Release', 'better_sqlite3.node'))) continue;
  // Quiet unless it fails: node-gyp's output is kept and shown only then.
  const run = spawnSync(process.execPath, [nodeGyp, 'rebuild', '--release', '-j', '2'], {
    cwd: dir,
    env,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (run.status !== 0) {
    const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.trimEnd().split('\n').slice(-60).join('\n');
    if (output !== '') console.error(output);
    if (run.error) console.error(String(run.error));
    console.error(
      `build-native: compiling ${entry} failed (exit ${run.status ?? run.signal}). It needs a C++ compiler (g++ or clang++), make and Python 3 (Debian/Ubuntu: apt-get install build-essential python3), and Node's headers under ${prefix}/include/node.`,
    );
    process.exit(1);
  }
}

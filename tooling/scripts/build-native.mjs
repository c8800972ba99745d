#!/usr/bin/env node
// Root postinstall: compile better-sqlite3 (the SQLite peer of the benchmarks and tests) from
// source against the Node headers installed with Node itself. Its own install script would try
// to download a prebuilt binary and then node-gyp's header tarball, and neither host is reachable
// here; `allowBuilds` in pnpm-workspace.yaml therefore turns that script off and this one runs
// node-gyp with `npm_config_nodedir` set. Already-built copies are skipped.
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
  console.log(`building ${entry} from source (about a minute on 2 cores)…`);
  const run = spawnSync(
    process.execPath,
    [
      nodeGyp,
      'rebuild',
      '--release',
      '-j',
      '2',
      ...(process.env.CI === 'true' ? ['--loglevel', 'error'] : []),
    ],
    {
      cwd: dir,
      env,
      stdio: process.env.CI === 'true' ? ['ignore', 'ignore', 'inherit'] : 'inherit',
    },
  );
  if (run.status !== 0) {
    console.error(
      `build-native: node-gyp failed for ${entry} (exit ${run.status}); is g++ installed and are Node's headers under ${prefix}/include/node?`,
    );
    process.exit(1);
  }
}

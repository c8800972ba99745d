#!/usr/bin/env node
// `pnpm check:packages`: consume every publishable package the way a user would.
// 1. `pnpm pack` each package under packages/ (workspace ranges become real versions);
// 2. publint --strict and @arethetypeswrong/cli on the tarball (profile node16 for dual packages,
//    esm-only for the ESM-only ones);
// 3. install all tarballs into a scratch project outside the workspace (no registry needed: the
//    packages' own dependencies are among the tarballs);
// 4. import each entry point from ESM, require it from CJS (dual packages), and type-check a
//    consumer file with moduleResolution nodenext, as a TypeScript user would.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const quiet = process.env.CI === 'true' || !process.stdout.isTTY;

const packages = readdirSync(join(root, 'packages'))
  .map((dir) => join(root, 'packages', dir))
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .map((dir) => ({ dir, json: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
  .filter(({ json }) => !json.private)
  // `pnpm check:packages prng buffer-pool` checks only those packages.
  .filter(
    ({ dir }) => process.argv.length <= 2 || process.argv.slice(2).some((name) => dir.endsWith(`/${name}`)),
  );

const scratch = mkdtempSync(join(tmpdir(), 'enginekit-consumer-'));
const tarballs = join(scratch, 'tarballs');
mkdirSync(tarballs);
const problems = [];

function run(cmd, args, cwd) {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function attempt(label, fn) {
  try {
    fn();
    if (!quiet) console.log(`  ok   ${label}`);
  } catch (err) {
    const out = `${err.stdout ?? ''}${err.stderr ?? ''}` || String(err.message);
    problems.push(`${label}\n${out.trim()}`);
    console.log(`  FAIL ${label}`);
  }
}

const isDual = (json) => JSON.stringify(json.exports ?? {}).includes('"require"');
const entryPoints = (json) =>
  Object.keys(json.exports ?? { '.': null }).filter((k) => k !== './package.json');

const packed = [];
for (const { dir, json } of packages) {
  console.log(`${json.name} (${isDual(json) ? 'ESM + CJS' : 'ESM-only'})`);
  if (!existsSync(join(dir, 'dist'))) {
    problems.push(`${json.name}: dist/ is missing — run pnpm build first`);
    continue;
  }
  const before = new Set(readdirSync(tarballs));
  run('pnpm', ['pack', '--pack-destination', tarballs], dir);
  const tarball = readdirSync(tarballs).find((f) => !before.has(f));
  if (!tarball) {
    problems.push(`${json.name}: pnpm pack produced no tarball`);
    continue;
  }
  packed.push({ json, tarball: join(tarballs, tarball) });
  attempt(`${json.name}: publint --strict`, () => run(bin('publint'), ['--strict'], dir));
  attempt(`${json.name}: attw`, () =>
    run(
      bin('attw'),
      [join(tarballs, tarball), '--profile', isDual(json) ? 'node16' : 'esm-only', '--format', 'ascii'],
      dir,
    ),
  );
  if (!isDual(json)) {
    attempt(`${json.name}: README says why it is ESM-only`, () => {
      const readme = readFileSync(join(dir, 'README.md'), 'utf8');
      if (!/ESM-only/i.test(readme))
        throw new Error('README.md does not explain why the package is ESM-only');
    });
  }
}

const consumer = join(scratch, 'consumer');
mkdirSync(consumer);
writeFileSync(
  join(consumer, 'package.json'),
  JSON.stringify({ name: 'consumer', private: true, version: '0.0.0' }, null, 2),
);
attempt('npm install of every tarball into a scratch project', () =>
  run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--ignore-scripts',
      ...packed.map((p) => p.tarball),
    ],
    consumer,
  ),
);
// The consumer's TypeScript sees Node's types from the workspace.
mkdirSync(join(consumer, 'node_modules', '@types'), { recursive: true });
if (!existsSync(join(consumer, 'node_modules', '@types', 'node'))) {
  symlinkSync(
    join(root, 'node_modules', '@types', 'node'),
    join(consumer, 'node_modules', '@types', 'node'),
    'dir',
  );
}

const esmLines = [];
const cjsLines = [];
const tsEsm = [];
const tsCjs = [];
packed.forEach(({ json }, i) => {
  for (const entry of entryPoints(json)) {
    const spec = entry === '.' ? json.name : `${json.name}/${entry.slice(2)}`;
    const id = `m${i}_${entry.replace(/\W/g, '_')}`;
    esmLines.push(`import * as ${id} from '${spec}';`, `check('${spec}', ${id});`);
    tsEsm.push(`import * as ${id} from '${spec}';`, `export const k${id}: string[] = Object.keys(${id});`);
    if (isDual(json)) {
      cjsLines.push(`check('${spec}', require('${spec}'));`);
      tsCjs.push(`import ${id} = require('${spec}');`, `export const k${id}: string[] = Object.keys(${id});`);
    }
  }
});
const checkFn = `function check(spec, mod) { const n = Object.keys(mod).length; if (n === 0) throw new Error(spec + ' exports nothing'); console.log('  loaded ' + spec + ' (' + n + ' exports)'); }`;
writeFileSync(
  join(consumer, 'esm.mjs'),
  `${checkFn}\n${esmLines.sort((a, b) => (a.startsWith('import') ? -1 : b.startsWith('import') ? 1 : 0)).join('\n')}\n`,
);
writeFileSync(join(consumer, 'cjs.cjs'), `${checkFn}\n${cjsLines.join('\n')}\n`);
writeFileSync(join(consumer, 'consumer.mts'), `${tsEsm.join('\n')}\n`);
writeFileSync(join(consumer, 'consumer.cts'), `${tsCjs.join('\n')}\nexport {};\n`);
writeFileSync(
  join(consumer, 'tsconfig.json'),
  JSON.stringify(
    {
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        strict: true,
        noEmit: true,
        types: ['node'],
      },
      files: ['consumer.mts', 'consumer.cts'],
    },
    null,
    2,
  ),
);
attempt('import every entry point from ESM', () =>
  process.stdout.write(`ESM:\n${run('node', ['esm.mjs'], consumer)}`),
);
attempt('require every dual entry point from CJS', () =>
  process.stdout.write(`CJS:\n${run('node', ['cjs.cjs'], consumer)}`),
);
attempt('type-check a consumer (nodenext, ESM and CJS)', () =>
  run(bin('tsc'), ['-p', 'tsconfig.json'], consumer),
);

rmSync(scratch, { recursive: true, force: true });
if (problems.length > 0) {
  console.error(`\ncheck:packages found ${problems.length} problem(s):\n\n${problems.join('\n\n')}`);
  process.exit(1);
}
console.log(`check:packages: ${packed.length} package(s) packed, installed and consumed cleanly`);

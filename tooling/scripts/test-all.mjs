#!/usr/bin/env node
// The README's test command (`pnpm test`): build, typecheck, lint, the layering check, unit
// tests (every package's vitest project, the tools' own tests and the README examples), and the
// consumer check of every publishable package. Every step runs even when an earlier one fails,
// so one run reports everything; the last line is `N passed, N failed` summed over the vitest
// run, which is what CI reads.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const resultsDir = join(root, '.tmp');
const resultsFile = join(resultsDir, 'vitest-results.json');
mkdirSync(resultsDir, { recursive: true });
rmSync(resultsFile, { force: true });

const steps = [
  ['build', 'pnpm', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']],
  ['typecheck', 'pnpm', ['exec', 'turbo', 'run', 'typecheck', '--output-logs=errors-only']],
  ['lint', 'pnpm', ['run', 'lint']],
  ['layers', 'pnpm', ['run', 'check:layers']],
  [
    'unit tests',
    'pnpm',
    ['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${resultsFile}`],
  ],
  ['check:packages', 'pnpm', ['run', 'check:packages']],
];

const failedSteps = [];
for (const [label, command, args] of steps) {
  const started = Date.now();
  process.stdout.write(`\n=== ${label} ===\n`);
  const run = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (run.status !== 0) {
    failedSteps.push(label);
    process.stdout.write(`=== ${label}: FAILED (exit ${run.status ?? run.signal}, ${seconds} s) ===\n`);
  } else {
    process.stdout.write(`=== ${label}: ok (${seconds} s) ===\n`);
  }
}

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(resultsFile)) {
  const json = JSON.parse(readFileSync(resultsFile, 'utf8'));
  passed = json.numPassedTests ?? 0;
  failed = json.numFailedTests ?? 0;
  skipped = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
} else {
  failed = 1;
}
if (failedSteps.length > 0) process.stdout.write(`\nfailed steps: ${failedSteps.join(', ')}\n`);
process.stdout.write(`\n${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}\n`);
process.exit(failedSteps.length > 0 || failed > 0 ? 1 : 0);

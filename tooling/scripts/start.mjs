#!/usr/bin/env node
// `pnpm start`: builds the bench app and everything it uses (turbo, cached), then takes the tour
// (`enginekit-bench tour`, arguments passed on). On a terminal, and not in CI, the build prints a
// line as each package is built (or found in the cache) and every 10 s while one is still
// building; otherwise it prints only errors. The tour prints its own progress the same way.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const turbo = join(root, 'node_modules', '.bin', 'turbo');
const filter = '--filter=@enginekit/bench...';
const progress = process.stdout.isTTY === true && !process.env.CI;
const t0 = performance.now();
const stamp = () => `[${String(Math.round((performance.now() - t0) / 1000)).padStart(4)} s]`;

if (!existsSync(turbo)) {
  console.error(`start: ${turbo} is missing: run pnpm install first`);
  process.exit(1);
}

/** Runs turbo's build; resolves its exit status. */
function build() {
  if (!progress) {
    const child = spawn(turbo, ['run', 'build', filter, '--output-logs=errors-only'], { stdio: 'inherit' });
    return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
  }
  const dry = spawnSync(turbo, ['run', 'build', filter, '--dry=json'], { encoding: 'utf8' });
  let names = [];
  try {
    names = JSON.parse(dry.stdout)
      .tasks.filter((t) => t.command !== '<NONEXISTENT>')
      .map((t) => t.package);
  } catch {
    // the names are for the progress lines only
  }
  const total = names.length;
  console.log(`${stamp()} building ${total || 'the'} packages the tour needs (turbo, cached)`);
  // grouped: each package's output arrives in one block when its build is done
  const child = spawn(turbo, ['run', 'build', filter, '--output-logs=full', '--log-order=grouped'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const captured = [];
  const done = new Set();
  let cached = 0;
  let pending = '';
  const onLine = (line) => {
    captured.push(line);
    const m = /^(@?[\w./-]+):build: (.*)$/.exec(line);
    if (m === null || done.has(m[1])) return;
    done.add(m[1]);
    const hit = m[2].startsWith('cache hit');
    if (hit) cached++;
    console.log(`${stamp()} ${hit ? 'from the cache' : 'built'}: ${m[1]} (${done.size} of ${total || '?'})`);
  };
  const onData = (b) => {
    pending += b.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const l of lines) onLine(l);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const ticker = setInterval(() => {
    const left = names.filter((n) => !done.has(n));
    console.log(
      `${stamp()} still building${left.length > 0 && left.length <= 3 ? ` ${left.join(', ')}` : ''} (${done.size} of ${total || '?'} done)`,
    );
  }, 10_000);
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      clearInterval(ticker);
      if (pending !== '') onLine(pending);
      if (code === 0) console.log(`${stamp()} build done: ${done.size} packages, ${cached} from the cache\n`);
      else process.stderr.write(`${captured.join('\n')}\n`);
      resolve(code ?? 1);
    });
  });
}

const status = await build();
if (status !== 0) process.exit(status);
// Ctrl-C reaches the tour directly (same terminal); this process waits for it to end.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
const tour = spawn(
  process.execPath,
  [join(root, 'apps', 'bench', 'dist', 'cli.js'), 'tour', ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
tour.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));

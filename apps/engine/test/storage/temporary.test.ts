// A temporary database lives in a directory of its own that close() removes; one left open is
// removed when its process or worker thread exits, so a program that forgets to close (or fails
// before it can) leaves nothing in the temp directory. The programs here run the built package.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import { beforeAll, describe, expect, it } from 'vitest';

const engineDir = join(import.meta.dirname, '..', '..');
const dist = JSON.stringify(join(engineDir, 'dist', 'index.js'));
beforeAll(() => buildFresh(engineDir), 300_000);

/** Runs `code` as an ES module; returns the lines it printed. */
function run(code: string): string[] {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout.trim().split('\n');
}

describe('temporary databases', () => {
  it('removes the directory of one never closed when the process exits', () => {
    const [open, closed] = run(`
      import { Database } from ${dist};
      const left = Database.temporary();
      left.createTable({ name: 't', columns: [{ name: 'a', type: { kind: 'int' } }], primaryKey: ['a'] });
      const closed = Database.temporary();
      closed.close();
      console.log(left.path);
      console.log(closed.path);
    `);
    expect(open).toMatch(/temp\.ekdb$/);
    expect(existsSync(dirname(closed!))).toBe(false);
    expect(existsSync(dirname(open!))).toBe(false);
  });

  it('removes them when a worker thread that opened them exits', () => {
    const worker = `
      import { parentPort } from 'node:worker_threads';
      const { Database } = await import(${dist});
      parentPort.postMessage(Database.temporary().path);
      // the thread lives until the parent has looked at the directory
      await new Promise((r) => parentPort.once('message', r));
    `;
    const [path, alive] = run(`
      import { Worker } from 'node:worker_threads';
      import { existsSync } from 'node:fs';
      import { dirname } from 'node:path';
      const w = new Worker(${JSON.stringify(worker)}, { eval: true });
      const path = await new Promise((r) => w.once('message', r));
      const alive = existsSync(dirname(path));
      const exited = new Promise((r) => w.once('exit', r));
      w.postMessage('exit');
      await exited;
      console.log(path);
      console.log(alive);
    `);
    expect(alive).toBe('true');
    expect(existsSync(dirname(path!))).toBe(false);
  });
});

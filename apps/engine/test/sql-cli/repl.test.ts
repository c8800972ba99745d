// The interactive loop of `enginekit sql`: line editing on a terminal (readline in terminal mode,
// keys as a terminal sends them), Ctrl-C on any line of a statement and while one runs (the
// statement runs on a worker thread and ends with 1317). Driven twice: through the
// loop's module with streams standing in for the terminal, and through the built binary in a real
// pseudo-terminal (util-linux `script`).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { startRepl } from '../../src/sql-cli/repl.js';

const CTRL_A = '\x01';
const CTRL_C = '\x03';
const ENTER = '\r';

/**
 * A loop over fake terminal streams; `keys` types, `ran` is every statement it ran. `run` (after
 * the statement is recorded) and `interrupt` stand for a statement running on another thread.
 */
function terminal(options: { run?: () => void | Promise<void>; interrupt?: () => void } = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (b: Buffer) => {
    shown += b.toString();
  });
  const ran: string[] = [];
  const rl = startRepl({
    input,
    output,
    terminal: true,
    history: [],
    run: (sql) => {
      ran.push(sql);
      return options.run?.();
    },
    ...(options.interrupt === undefined ? {} : { interrupt: options.interrupt }),
    onClose: () => {},
  });
  const keys = async (text: string): Promise<void> => {
    input.write(text);
    await new Promise((r) => setImmediate(r));
  };
  return { rl, ran, keys, shown: () => shown };
}

describe('Ctrl-C in the statement loop', () => {
  it('on the first line: the typed text is dropped and new typing starts on an empty line', async () => {
    const t = terminal();
    await t.keys('SELECT 1');
    await t.keys(CTRL_C);
    expect(t.rl.line).toBe('');
    expect(t.rl.getPrompt()).toBe('enginekit> ');
    await t.keys(`SELECT 2;${ENTER}`);
    expect(t.ran).toEqual(['SELECT 2']);
    expect(t.shown()).toContain('SELECT 1^C\r\n');
    t.rl.close();
  });

  it('with the cursor moved to the start of the line first', async () => {
    const t = terminal();
    await t.keys(`SELECT 9${CTRL_A}`);
    expect(t.rl.cursor).toBe(0);
    await t.keys(CTRL_C);
    await t.keys(`SELECT 4;${ENTER}`);
    expect(t.ran).toEqual(['SELECT 4']);
    t.rl.close();
  });

  it('on a later line of a statement: every line of it is dropped, the prompt is the first again', async () => {
    const t = terminal();
    await t.keys(`SELECT${ENTER}`);
    await t.keys(`a,${ENTER}`);
    expect(t.rl.getPrompt()).toBe('        -> ');
    await t.keys('b FROM');
    await t.keys(CTRL_C);
    expect([t.rl.line, t.rl.getPrompt()]).toEqual(['', 'enginekit> ']);
    await t.keys(`SELECT 3;${ENTER}`);
    expect(t.ran).toEqual(['SELECT 3']);
    t.rl.close();
  });

  it('on an empty line: a fresh prompt; statements before and after run as typed', async () => {
    const t = terminal();
    await t.keys(`SELECT 1; SELECT${ENTER}`);
    await t.keys(CTRL_C);
    await t.keys(CTRL_C);
    await t.keys(`SELECT 5\\G${ENTER}`);
    expect(t.ran).toEqual(['SELECT 1', 'SELECT 5']);
    t.rl.close();
  });
});

describe('a statement running elsewhere', () => {
  it('Ctrl-C interrupts it; what was typed meanwhile runs after it, in order', async () => {
    let release: (() => void) | null = null;
    let interrupts = 0;
    const { rl, ran, keys, shown } = terminal({
      run: () => new Promise<void>((r) => (release = r)),
      interrupt: () => interrupts++,
    });
    await keys(`SELECT 1;${ENTER}`);
    expect(ran).toEqual(['SELECT 1']);
    await keys(`SELECT 2;${ENTER}SELECT${ENTER}3;${ENTER}`);
    // the first statement still runs: nothing else started
    expect(ran).toEqual(['SELECT 1']);
    await keys(CTRL_C);
    expect(interrupts).toBe(1);
    expect(shown()).toContain('Ctrl-C -- query killed. Continuing normally.');
    release!();
    await new Promise((r) => setImmediate(r));
    expect(ran).toEqual(['SELECT 1', 'SELECT 2']);
    release!();
    await new Promise((r) => setImmediate(r));
    expect(ran).toEqual(['SELECT 1', 'SELECT 2', 'SELECT\n3']);
    release!();
    await new Promise((r) => setImmediate(r));
    // idle again: Ctrl-C drops typing, it interrupts nothing
    await keys(CTRL_C);
    expect(interrupts).toBe(1);
    rl.close();
  });

  it('the end of the input waits for the queued statements before closing', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const ran: string[] = [];
    let closed = false;
    startRepl({
      input,
      output,
      terminal: false,
      history: [],
      run: (sql) => {
        ran.push(sql);
        return new Promise<void>((r) => setTimeout(r, 20));
      },
      onClose: () => {
        closed = true;
      },
    });
    input.end('SELECT 1;\nSELECT 2;\nquit\nSELECT 3;\n');
    await new Promise((r) => setTimeout(r, 10));
    expect(closed).toBe(false);
    await new Promise((r) => setTimeout(r, 100));
    expect(ran).toEqual(['SELECT 1', 'SELECT 2']);
    expect(closed).toBe(true);
  });
});

// A real terminal: `script` runs the command on a pseudo-terminal fed from our pipe.
const hasScript = spawnSync('sh', ['-c', 'command -v script'], { encoding: 'utf8' }).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'engine-sql-repl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * `enginekit sql --db DIR/name --create` on a pseudo-terminal: `type` sends keys, `waitFor(text,
 * from)` resolves with the offset past the first `text` at or after `from` in what the terminal
 * shows (`seen()`), and fails after a minute.
 */
function pty(name: string) {
  const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
  const command = `${process.execPath} ${cli} sql --db ${join(dir, name)} --create`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { ...process.env, HOME: dir, TERM: 'xterm' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let shown = '';
  child.stdout.on('data', (b: Buffer) => {
    shown += b.toString();
  });
  const waitFor = async (text: string, from: number): Promise<number> => {
    const deadline = Date.now() + 60_000;
    while (shown.indexOf(text, from) < 0) {
      if (Date.now() > deadline) throw new Error(`no "${text}" in:\n${shown}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return shown.indexOf(text, from) + text.length;
  };
  const type = (text: string): void => void child.stdin.write(text);
  return { child, waitFor, type, seen: (): string => shown };
}

describe.skipIf(!hasScript)('enginekit sql on a pseudo-terminal', () => {
  it('Ctrl-C on the first and on a later line drops the statement; the next one runs alone', async () => {
    const { child, waitFor, type, seen } = pty('pty.ekdb');
    let at = await waitFor('enginekit> ', 0);
    type(`CREATE TABLE t (a INT);${ENTER}`);
    at = await waitFor('enginekit> ', await waitFor('Query OK', at));
    type('INSERT INTO t VALUES (1)');
    await waitFor('VALUES (1)', at);
    type(CTRL_C);
    at = await waitFor('enginekit> ', await waitFor('^C', at));
    type(`INSERT INTO t VALUES (2);${ENTER}`);
    at = await waitFor('enginekit> ', await waitFor('Query OK, 1 row affected', at));
    type(`INSERT INTO t${ENTER}VALUES (3)`);
    await waitFor('VALUES (3)', at);
    type(CTRL_C);
    at = await waitFor('enginekit> ', await waitFor('^C', at));
    type(`SELECT a FROM t;${ENTER}`);
    at = await waitFor('row in set', at);
    child.stdin.write('\x04');
    const status = await new Promise<number | null>((r) => child.on('exit', r));
    const table = seen().slice(seen().lastIndexOf('SELECT a FROM t'));
    expect(table).toMatch(/\| a \|\r?\n\+-+\+\r?\n\| 2 \|\r?\n\+-+\+\r?\n1 row in set/);
    expect(status).toBe(0);
  }, 120_000);

  it('Ctrl-C stops a running statement within a second (1317); the session goes on', async () => {
    const { child, waitFor, type, seen } = pty('pty-kill.ekdb');
    let at = await waitFor('enginekit> ', 0);
    const values = Array.from({ length: 100 }, (_, i) => `(${i})`).join(',');
    type(`CREATE TABLE t (a INT); INSERT INTO t VALUES ${values};${ENTER}`);
    at = await waitFor('enginekit> ', await waitFor('100 rows affected', at));
    // 10^10 rows to count: it would run for hours
    type(`SELECT COUNT(*) FROM t a, t b, t c, t d, t e;${ENTER}`);
    await waitFor('t e;', at);
    await new Promise((r) => setTimeout(r, 500));
    const sent = Date.now();
    type(CTRL_C);
    at = await waitFor('ERROR 1317 (70100): Query execution was interrupted', at);
    expect(Date.now() - sent).toBeLessThan(1000);
    at = await waitFor('enginekit> ', at);
    type(`SELECT COUNT(*) AS n FROM t;${ENTER}`);
    at = await waitFor('1 row in set', at);
    expect(seen().slice(seen().lastIndexOf('SELECT COUNT(*) AS n'))).toMatch(/\|\s+100 \|/);
    child.stdin.write('\x04');
    expect(await new Promise<number | null>((r) => child.on('exit', r))).toBe(0);
  }, 120_000);
});

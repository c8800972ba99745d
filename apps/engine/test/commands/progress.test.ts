import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ProgressBars } from '../../src/commands/internal/progress.js';

const ESCAPE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g');

/** A terminal `columns` wide that keeps what is drawn on it, line by line. */
class FakeTerminal extends Writable {
  readonly isTTY = true;
  readonly lines: string[] = [];
  constructor(readonly columns: number) {
    super();
  }
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    // strip cursor movement and erase sequences; what remains is the text of the lines
    const text = chunk.toString().replace(ESCAPE, '');
    for (const l of text.split(/[\r\n]/)) if (l.length > 0) this.lines.push(l);
    done();
  }
  cursorTo(_x: number, _y?: number | (() => void), cb?: () => void): boolean {
    cb?.();
    return true;
  }
  moveCursor(_dx: number, _dy: number, cb?: () => void): boolean {
    cb?.();
    return true;
  }
  clearLine(_dir: number, cb?: () => void): boolean {
    cb?.();
    return true;
  }
  clearScreenDown(cb?: () => void): boolean {
    cb?.();
    return true;
  }
}

describe('progress bars', () => {
  it.each([120, 80, 60, 40, 24])('fit a terminal %i columns wide', (columns) => {
    const term = new FakeTerminal(columns);
    const bars = new ProgressBars(term as unknown as NodeJS.WriteStream, 8, 28);
    bars.start('lineitem', 6_001_215, 'rows');
    bars.update(3_000_000, 'rows');
    bars.update(6_001_215, 'index i_l_suppkey_partkey');
    bars.start('orders', 1_500_000, 'rows');
    bars.finish(1_500_000, 'done');
    bars.stop();
    expect(term.lines.length).toBeGreaterThan(0);
    for (const l of term.lines) expect(l.length).toBeLessThan(columns);
    // the last frame: both tables, complete
    const last = term.lines.slice(-2);
    expect(last[0]!.startsWith('lineitem [')).toBe(true);
    expect(last[1]!.startsWith('orders   [')).toBe(true);
    if (columns >= 60) expect(last[0]).toContain('6001215/6001215');
    if (columns >= 80) expect(term.lines.some((l) => l.endsWith('index i_l_suppkey_partkey'))).toBe(true);
  });

  it('draws nothing when the stream is not a terminal', () => {
    const term = new FakeTerminal(80);
    Object.defineProperty(term, 'isTTY', { value: false });
    const bars = new ProgressBars(term as unknown as NodeJS.WriteStream, 8, 28);
    bars.start('lineitem', 10);
    bars.update(5);
    bars.stop();
    expect(bars.enabled).toBe(false);
    expect(term.lines).toEqual([]);
  });
});

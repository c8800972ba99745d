// Every `enginekit-bench` command line in a shell block of the docs and READMEs is one the
// command accepts: a known command and experiment, known options and valid values — checked with
// the command's own argument parsing (`checkCommandLine`), without running anything.
import { join } from 'node:path';
import { documentedCommands } from '@enginekit/vitest-config/doc-commands';
import { describe, expect, it } from 'vitest';
import { checkCommandLine } from '../src/commands.js';

const found = documentedCommands(join(import.meta.dirname, '..', '..', '..'), 'enginekit-bench');

describe('enginekit-bench command lines in the docs', () => {
  it('finds them', () => {
    expect(found.length).toBeGreaterThan(10);
  });

  for (const f of found)
    it(`${f.where}: ${f.text.slice(0, 70)}`, () => {
      expect(() => checkCommandLine(f.argv)).not.toThrow();
    });

  it('the check fails on an unknown experiment, option or value', () => {
    expect(() => checkCommandLine(['experiment', 'mrr-q11'])).toThrow(/unknown experiment mrr-q11/);
    expect(() => checkCommandLine(['experiment', 'oltp', '--fast'])).toThrow(/unknown option --fast/);
    expect(() => checkCommandLine(['experiment', 'oltp', '--sf', '-1'])).toThrow(/--sf must be a positive/);
    expect(() => checkCommandLine(['tour', 'extra'])).toThrow(/unexpected argument extra/);
    expect(() => checkCommandLine(['bench'])).toThrow(/unknown command bench/);
    expect(checkCommandLine(['experiment', 'oltp', '--quick'])).toBe('experiment');
    expect(() => checkCommandLine(['micro', 'sql-pointy'])).toThrow(/unknown micro benchmark sql-pointy/);
    expect(() => checkCommandLine(['micro', 'sysbench', '--time', '-1'])).toThrow(
      /--time must be a positive/,
    );
    expect(() => checkCommandLine(['micro', 'redo', '--rows', '5'])).toThrow(/unknown option --rows/);
    expect(checkCommandLine(['micro', 'sql-tpch', '--sf', '0.01', '--no-peers'])).toBe('micro');
  });
});

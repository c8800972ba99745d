import { describe, expect, it } from 'vitest';
import {
  type CommandSpec,
  parseArgs,
  positiveInteger,
  positiveNumber,
  scaleFactor,
  stringOption,
  UsageError,
  wantsHelp,
} from '../../src/commands/cli-args.js';

const spec: CommandSpec = { name: 'tpch gen', flags: ['quiet'], values: ['sf', 'out', 'chunks'] };

const msg = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  return 'no error';
};

describe('cli arguments', () => {
  it('parses --name value, --name=value and flags', () => {
    const a = parseArgs(['--sf', '0.1', '--out=/tmp/x', '--quiet'], spec);
    expect(a.words).toEqual([]);
    expect([...a.options]).toEqual([
      ['sf', '0.1'],
      ['out', '/tmp/x'],
      ['quiet', true],
    ]);
    expect(positiveNumber(a, 'sf', 'tpch gen', 0.01)).toBe(0.1);
    expect(stringOption(a, 'out', 'tpch gen')).toBe('/tmp/x');
  });

  it('names an unknown option as unknown, before any missing value', () => {
    expect(msg(() => parseArgs(['--frobnicate'], spec))).toBe('tpch gen: unknown option --frobnicate');
    expect(msg(() => parseArgs(['--frobnicate=1'], spec))).toBe('tpch gen: unknown option --frobnicate');
    expect(msg(() => parseArgs(['--sf', '1', '--db', 'x'], spec))).toBe('tpch gen: unknown option --db');
    expect(msg(() => parseArgs(['-s', '1'], spec))).toBe(
      "tpch gen: unknown option '-s' (options are spelled --name)",
    );
  });

  it('explains each other mistake', () => {
    expect(msg(() => parseArgs(['--sf'], spec))).toBe('tpch gen: --sf needs a value');
    expect(msg(() => parseArgs(['--sf', '--out', 'x'], spec))).toBe('tpch gen: --sf needs a value');
    expect(msg(() => parseArgs(['--quiet=yes'], spec))).toBe('tpch gen: --quiet takes no value');
    expect(msg(() => parseArgs(['--sf', '1', '--sf', '2'], spec))).toBe('tpch gen: --sf given twice');
    expect(msg(() => stringOption(parseArgs([], spec), 'out', 'tpch gen'))).toBe(
      'tpch gen: --out is required',
    );
    for (const bad of ['0', '1.5', 'x', '']) {
      expect(msg(() => positiveInteger(parseArgs([`--chunks=${bad}`], spec), 'chunks', 'tpch gen', 1))).toBe(
        `tpch gen: --chunks must be a positive integer, got '${bad}'`,
      );
    }
    for (const bad of ['0', '-1', 'abc', '0e5', '', 'Infinity', '1e999']) {
      expect(msg(() => positiveNumber(parseArgs([`--sf=${bad}`], spec), 'sf', 'tpch gen', 1))).toBe(
        `tpch gen: --sf must be a positive number, got '${bad}'`,
      );
    }
    expect(msg(() => scaleFactor(parseArgs(['--sf', '1.5'], spec), 'tpch gen', 1))).toBe(
      "tpch gen: --sf from 1 up must be an integer, got '1.5'",
    );
  });

  it('takes every positive number, exponents too', () => {
    for (const [text, n] of [
      ['1e-9', 1e-9],
      ['.5', 0.5],
      ['2.', 2],
      ['1E3', 1000],
      ['+3', 3],
    ] as const) {
      expect(positiveNumber(parseArgs([`--sf=${text}`], spec), 'sf', 'tpch gen', 1)).toBe(n);
    }
  });

  it('finds --help and --version anywhere before --', () => {
    expect(wantsHelp(['--sf', '1', '--help'])).toBe('help');
    expect(wantsHelp(['-h'])).toBe('help');
    expect(wantsHelp(['--frobnicate', '--version'])).toBe('version');
    expect(wantsHelp(['--', '--help'])).toBeUndefined();
    expect(wantsHelp(['--sf', '1'])).toBeUndefined();
  });
});

// Every `enginekit` command line in a shell block of the docs and READMEs is one the command
// accepts: a known command, known options with their values, no stray words — checked with the
// commands' own argument specs, so a renamed or removed option fails here, not in a reader's
// shell. (The lines are checked, not run: several take hours or need a server or MariaDB.)
import { join } from 'node:path';
import { documentedCommands, simpleCommands } from '@enginekit/vitest-config/doc-commands';
import { describe, expect, it } from 'vitest';
import { noWords, parseArgs, wantsHelp } from '../../src/commands/cli-args.js';
import { COMMANDS } from '../../src/commands/usage.js';

const root = join(import.meta.dirname, '..', '..', '..', '..');

/** Throws the command's own usage error when `argv` (after `enginekit`) is not accepted. */
function check(argv: readonly string[]): string {
  if (argv.length === 0 || wantsHelp(argv) !== undefined) return 'help';
  const name = argv[0] === 'tpch' ? `tpch ${argv[1]}` : argv[0]!;
  const c = COMMANDS[name];
  if (c === undefined) throw new Error(`unknown command '${name}'`);
  const rest = argv.slice(name.split(' ').length);
  noWords(parseArgs(rest, c.spec), c.spec);
  return name;
}

const found = documentedCommands(root, 'enginekit');

describe('enginekit command lines in the docs', () => {
  it('finds them', () => {
    expect(found.length).toBeGreaterThan(20);
  });

  for (const f of found)
    it(`${f.where}: ${f.text.slice(0, 70)}`, () => {
      expect(() => check(f.argv)).not.toThrow();
    });

  it('the check fails on a renamed option, an unknown command and a stray word', () => {
    expect(() => check(['sql', '--database', 'x'])).toThrow(/unknown option --database/);
    expect(() => check(['query', '--db', 'x'])).toThrow(/unknown command/);
    expect(() => check(['info', '--db', 'x', 'extra'])).toThrow(/unexpected argument/);
    expect(check(['sql', '--db', 'x', '-e', 'SELECT 1'])).toBe('sql');
    expect(simpleCommands(`A=1 enginekit sql --db /tmp/a -e "SELECT 1; SELECT 2" > out.txt # note`)).toEqual([
      ['A=1', 'enginekit', 'sql', '--db', '/tmp/a', '-e', 'SELECT 1; SELECT 2'],
    ]);
    expect(simpleCommands('pnpm build && pnpm enginekit demo &')).toEqual([
      ['pnpm', 'build'],
      ['pnpm', 'enginekit', 'demo'],
    ]);
  });
});

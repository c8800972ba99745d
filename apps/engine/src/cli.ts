#!/usr/bin/env node
import { createRequire } from 'node:module';
import { removeDeadSpillDirectories } from '@enginekit/common';
import { UsageError, wantsHelp } from './commands/cli-args.js';
import { demoCommand } from './commands/demo.js';
import { genCommand } from './commands/gen.js';
import { infoCommand } from './commands/info.js';
import { failure } from './commands/internal/failure.js';
import { writeErr, writeOut } from './commands/internal/output.js';
import { loadCommand } from './commands/load.js';
import { COMMANDS, commandUsage, mainUsage } from './commands/usage.js';
import { sqlCommand } from './commands/sql.js';
import { serveCommand } from './commands/serve.js';

const RUN: Readonly<Record<string, (argv: readonly string[]) => void | Promise<void>>> = {
  'tpch gen': genCommand,
  'tpch load': loadCommand,
  info: infoCommand,
  demo: demoCommand,
  sql: sqlCommand,
  serve: serveCommand,
};

function version(): string {
  const pkg = createRequire(import.meta.url)('../package.json') as { version: string };
  return `enginekit ${pkg.version}\n`;
}

/** Finds the command (one or two words) and the arguments after it. */
function split(argv: readonly string[]): { name: string | undefined; rest: readonly string[] } {
  const [first, second] = argv;
  if (first === 'tpch') {
    if (second === undefined || second.startsWith('-')) return { name: 'tpch', rest: argv.slice(1) };
    return { name: `tpch ${second}`, rest: argv.slice(2) };
  }
  return { name: first, rest: argv.slice(1) };
}

let usageFor: string | undefined;

async function main(argv: readonly string[]): Promise<void> {
  const { name, rest } = split(argv);
  if (name === undefined || name.startsWith('-') || name === 'help') {
    const want = name === '--version' ? 'version' : wantsHelp(argv);
    if (want === 'version') writeOut(version());
    else if (want === 'help' || name === undefined || name === 'help') writeOut(mainUsage());
    else throw new UsageError(`unknown option ${name}`);
    return;
  }
  const run = RUN[name];
  if (run === undefined) {
    if (name === 'tpch') {
      if (wantsHelp(rest) === 'help') return void writeOut(mainUsage());
      throw new UsageError('tpch needs a subcommand: gen or load');
    }
    throw new UsageError(
      name.startsWith('tpch ') ? `unknown tpch subcommand '${name.slice(5)}'` : `unknown command '${name}'`,
    );
  }
  const want = wantsHelp(rest);
  if (want === 'help') return void writeOut(commandUsage(COMMANDS[name]!));
  if (want === 'version') return void writeOut(version());
  usageFor = name;
  // spill directories of processes that died (a crash, a SIGKILL) are removed before any work
  removeDeadSpillDirectories();
  await run(rest);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  const f = failure(e);
  const prefix = usageFor === undefined || e instanceof UsageError ? 'enginekit' : `enginekit: ${usageFor}`;
  writeErr(`${prefix}: ${f.line}\n`);
  if (e instanceof UsageError) {
    const c = usageFor === undefined ? undefined : COMMANDS[usageFor];
    writeErr(c === undefined ? 'run enginekit --help for the commands\n' : `usage: ${c.synopsis}\n`);
  }
  if (f.stack !== undefined && process.env.ENGINEKIT_DEBUG) writeErr(`${f.stack}\n`);
  process.exitCode = f.status;
});

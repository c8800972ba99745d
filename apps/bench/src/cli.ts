#!/usr/bin/env node
import { UsageError } from './args.js';
import {
  collectCommand,
  commandArgs,
  experimentCommand,
  listCommand,
  microCommand,
  reportCommand,
  USAGE,
} from './commands.js';
import { tourCommand } from './tour.js';

// A reader that goes away (`enginekit-bench list | head -3`) ends the command quietly.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

const out = (t: string): void => void process.stdout.write(t);
const log = (t: string): void => void process.stderr.write(t);

async function main(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      out(USAGE);
      return;
    case 'list':
      commandArgs('list', rest);
      listCommand(out);
      return;
    case 'experiment':
      await experimentCommand(rest, out, log);
      return;
    case 'report':
      reportCommand(rest, out);
      return;
    case 'tour':
      await tourCommand(rest, out, log);
      return;
    case 'micro':
      await microCommand(rest, out, log);
      return;
    case 'collect':
      collectCommand(rest, out, log);
      return;
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) {
    log(`enginekit-bench: ${err.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else {
    log(`enginekit-bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  }
});

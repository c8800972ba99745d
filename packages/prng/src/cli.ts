#!/usr/bin/env node
import { createGenerator, generatorNames } from './create.js';
import { bugStory } from './demo.js';
import { formatReport, report } from './quality/report.js';
import type { GeneratorName } from './types.js';

const USAGE = `usage:
  enginekit-prng demo                          the bug #43660 story in numbers
  enginekit-prng report [--words 32|64]        run the statistical battery on every generator
  enginekit-prng stream <name> [--seed N]      little-endian uint32 (nextUint32) to stdout until the pipe closes
generators: ${generatorNames.join(', ')}`;

function fail(message: string): never {
  process.stderr.write(`enginekit-prng: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (value === undefined) fail(`${name} needs a value`);
  return value;
}

function stream(args: string[]): void {
  const name = args[0];
  if (name === undefined) fail('stream needs a generator name');
  if (!generatorNames.includes(name as GeneratorName)) fail(`unknown generator '${name}'`);
  const seedText = flag(args, '--seed');
  let seed: bigint | undefined;
  if (seedText !== undefined) {
    if (!/^\d+$/.test(seedText)) fail(`--seed must be a non-negative integer, got '${seedText}'`);
    seed = BigInt(seedText);
  }
  const gen = createGenerator(name as GeneratorName, seed !== undefined ? { seed } : {});
  const words = 16_384;
  let stopped = false;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    stopped = true;
    if (err.code === 'EPIPE') process.exit(0);
    process.stderr.write(`enginekit-prng: ${err.message}\n`);
    process.exit(1);
  });
  const pump = (): void => {
    while (!stopped) {
      const chunk = new Uint32Array(words);
      for (let i = 0; i < words; i++) chunk[i] = gen.nextUint32();
      // Node runs on little-endian hosts only (x64, arm64), so the array's bytes are little-endian.
      if (!process.stdout.write(new Uint8Array(chunk.buffer))) {
        process.stdout.once('drain', pump);
        return;
      }
    }
  };
  pump();
}

const [command, ...rest] = process.argv.slice(2);
switch (command) {
  case 'demo':
    process.stdout.write(`${bugStory()}\n`);
    break;
  case 'report': {
    const words = flag(rest, '--words') ?? '64';
    if (words !== '32' && words !== '64') fail(`--words must be 32 or 64, got '${words}'`);
    process.stdout.write(`${formatReport(report({ wordBits: Number(words) as 32 | 64 }))}\n`);
    break;
  }
  case 'stream':
    stream(rest);
    break;
  case undefined:
  case '--help':
  case '-h':
    process.stdout.write(`${USAGE}\n`);
    break;
  default:
    fail(`unknown command '${command}'`);
}

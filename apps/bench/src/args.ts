/** A command-line mistake: printed with the usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface ParsedArgs {
  readonly positional: string[];
  readonly flags: Map<string, string | true>;
}

/**
 * `--name value`, `--name=value` and bare `--flag` (for the names in `booleans`); everything
 * else is positional. An unknown option is a UsageError naming it.
 */
export function parseArgs(
  argv: readonly string[],
  valued: readonly string[],
  booleans: readonly string[],
): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
    if (booleans.includes(name)) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      flags.set(name, true);
    } else if (valued.includes(name)) {
      const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined || v === '') throw new UsageError(`--${name} needs a value`);
      flags.set(name, v);
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return { positional, flags };
}

/** A positive finite number from an option, or a UsageError naming the option. */
export function positiveNumber(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`--${name} must be a positive number, got ${value}`);
  return n;
}

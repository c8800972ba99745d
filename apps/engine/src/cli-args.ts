/** A command-line mistake: printed with the usage text, exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface ParsedArgs {
  /** Positional words (subcommands). */
  readonly words: string[];
  /** `--name value` / `--name=value` options; flags map to `true`. */
  readonly options: Map<string, string | true>;
}

/**
 * Splits argv into words and `--options`. `flags` names the options that take no value; every
 * other option needs one. Unknown options are reported by {@link expectOnly}.
 */
export function parseArgs(argv: readonly string[], flags: ReadonlySet<string>): ParsedArgs {
  const words: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      words.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      if (name.length === 0) throw new UsageError(`bad option '${a}'`);
      if (options.has(name)) throw new UsageError(`--${name} given twice`);
      if (flags.has(name)) {
        if (eq >= 0) throw new UsageError(`--${name} takes no value`);
        options.set(name, true);
      } else if (eq >= 0) {
        options.set(name, a.slice(eq + 1));
      } else {
        const v = argv[i + 1];
        if (v === undefined || v.startsWith('--')) throw new UsageError(`--${name} needs a value`);
        options.set(name, v);
        i++;
      }
    } else if (a.startsWith('-') && a.length > 1) {
      throw new UsageError(`unknown option '${a}' (options are spelled --name)`);
    } else {
      words.push(a);
    }
  }
  return { words, options };
}

/** Throws if an option outside `allowed` was given. */
export function expectOnly(args: ParsedArgs, allowed: readonly string[], command: string): void {
  for (const name of args.options.keys()) {
    if (!allowed.includes(name)) throw new UsageError(`${command}: unknown option --${name}`);
  }
}

/** A required string option. */
export function requireString(args: ParsedArgs, name: string, command: string): string {
  const v = args.options.get(name);
  if (v === undefined) throw new UsageError(`${command}: --${name} is required`);
  if (v === true || v.length === 0) throw new UsageError(`${command}: --${name} needs a value`);
  return v;
}

/** A positive decimal number option (`0.01`, `1`, `10`). */
export function positiveNumber(args: ParsedArgs, name: string, command: string, fallback: number): number {
  const v = args.options.get(name);
  if (v === undefined) return fallback;
  if (v === true || !/^(\d+(\.\d*)?|\.\d+)$/.test(v) || !(Number(v) > 0)) {
    throw new UsageError(`${command}: --${name} must be a positive number, got '${v === true ? '' : v}'`);
  }
  return Number(v);
}

/** A positive integer option (`--chunks 4`). */
export function positiveInteger(args: ParsedArgs, name: string, command: string, fallback: number): number {
  const v = args.options.get(name);
  if (v === undefined) return fallback;
  if (v === true || !/^[1-9]\d{0,8}$/.test(v)) {
    throw new UsageError(`${command}: --${name} must be a positive integer, got '${v === true ? '' : v}'`);
  }
  return Number(v);
}

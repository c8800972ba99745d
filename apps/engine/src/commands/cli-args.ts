/** A command-line mistake: printed with the command's usage, exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The options one command takes. `--help` and `--version` are accepted by every command. */
export interface CommandSpec {
  /** The command as typed, for messages: `tpch gen`. */
  readonly name: string;
  /** Options that take no value. */
  readonly flags: readonly string[];
  /** Options that need a value (`--sf 0.1` or `--sf=0.1`). */
  readonly values: readonly string[];
  /** One-letter spellings (`-e` for `--execute`), as the mysql client's. */
  readonly short?: Readonly<Record<string, string>>;
}

export interface ParsedArgs {
  /** Positional words. */
  readonly words: string[];
  /** Options given: flags map to `true`. */
  readonly options: Map<string, string | true>;
}

/** `--help`/`-h` or `--version` anywhere before `--`: answered before anything else is checked. */
export function wantsHelp(argv: readonly string[]): 'help' | 'version' | undefined {
  for (const a of argv) {
    if (a === '--') return undefined;
    if (a === '--help' || a === '-h') return 'help';
    if (a === '--version') return 'version';
  }
  return undefined;
}

/**
 * Splits argv into words and options against `spec`. An option the command does not know is
 * named as unknown (before any other check, so a typo is never reported as a missing value).
 */
export function parseArgs(argv: readonly string[], spec: CommandSpec): ParsedArgs {
  const words: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const long = spec.short?.[argv[i]!.slice(1)];
    const a = long !== undefined && /^-[A-Za-z]$/.test(argv[i]!) ? `--${long}` : argv[i]!;
    if (a === '--') {
      words.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      const isFlag = spec.flags.includes(name);
      if (name.length === 0 || (!isFlag && !spec.values.includes(name)))
        throw new UsageError(`${spec.name}: unknown option ${eq < 0 ? a : a.slice(0, eq)}`);
      if (options.has(name)) throw new UsageError(`${spec.name}: --${name} given twice`);
      if (isFlag) {
        if (eq >= 0) throw new UsageError(`${spec.name}: --${name} takes no value`);
        options.set(name, true);
      } else if (eq >= 0) {
        options.set(name, a.slice(eq + 1));
      } else {
        const v = argv[i + 1];
        if (v === undefined || v.startsWith('--'))
          throw new UsageError(`${spec.name}: --${name} needs a value`);
        options.set(name, v);
        i++;
      }
    } else if (a.startsWith('-') && a.length > 1) {
      throw new UsageError(`${spec.name}: unknown option '${a}' (options are spelled --name)`);
    } else {
      words.push(a);
    }
  }
  return { words, options };
}

/** Throws if positional words were given to a command that takes none. */
export function noWords(args: ParsedArgs, spec: CommandSpec): void {
  if (args.words.length > 0) throw new UsageError(`${spec.name}: unexpected argument '${args.words[0]}'`);
}

/** A string option; required unless `fallback` is given. */
export function stringOption(args: ParsedArgs, name: string, command: string): string;
export function stringOption(
  args: ParsedArgs,
  name: string,
  command: string,
  fallback: undefined,
): string | undefined;
export function stringOption(
  args: ParsedArgs,
  name: string,
  command: string,
  ...fallback: [undefined?]
): string | undefined {
  const v = args.options.get(name);
  if (v === undefined) {
    if (fallback.length > 0) return undefined;
    throw new UsageError(`${command}: --${name} is required`);
  }
  if (v === true || v.length === 0) throw new UsageError(`${command}: --${name} needs a value`);
  return v;
}

const NUMBER = /^\+?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A positive decimal number option (`0.01`, `1`, `1e-3`). */
export function positiveNumber(args: ParsedArgs, name: string, command: string, fallback: number): number {
  const v = args.options.get(name);
  if (v === undefined) return fallback;
  const n = typeof v === 'string' && NUMBER.test(v) ? Number(v) : Number.NaN;
  if (!(n > 0) || !Number.isFinite(n)) {
    throw new UsageError(`${command}: --${name} must be a positive number, got '${v === true ? '' : v}'`);
  }
  return n;
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

/** A scale factor: a positive number, and an integer from 1 up (dbgen would truncate 1.5 to 1). */
export function scaleFactor(args: ParsedArgs, command: string, fallback: number): number {
  const sf = positiveNumber(args, 'sf', command, fallback);
  if (sf >= 1 && !Number.isInteger(sf))
    throw new UsageError(`${command}: --sf from 1 up must be an integer, got '${args.options.get('sf')}'`);
  return sf;
}

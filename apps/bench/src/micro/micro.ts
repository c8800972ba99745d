import { UsageError } from '../args.js';

/**
 * What a micro benchmark's option holds: a positive number, a whole number ≥ 0, free text, a
 * comma-separated list, or a bare flag.
 */
export type OptionKind = 'number' | 'count' | 'text' | 'list' | 'flag';

export interface MicroOption {
  readonly kind: OptionKind;
  /** The value when the option is not given (none for flags and optional paths). */
  readonly default?: string;
  /** One line for `micro <name> --help`. */
  readonly about: string;
}

/** Where a micro benchmark writes: its tables to `out` (stdout), progress to `log` (stderr). */
export interface MicroIo {
  /** One line of the benchmark's report. */
  readonly out: (line: string) => void;
  /** One line of progress. */
  readonly log: (line: string) => void;
}

/**
 * One of the engine's micro benchmarks: a single measurement printed as Markdown tables, run as
 * `enginekit-bench micro <name> [options]`. Each lives in a file of its own under `src/micro/`
 * and is listed in `src/micro/registry.ts`.
 */
export interface MicroBench {
  readonly name: string;
  readonly title: string;
  /** What it measures and how, a few lines for `micro <name> --help`. */
  readonly about: string;
  readonly options: Readonly<Record<string, MicroOption>>;
  run(args: MicroArgs, io: MicroIo): Promise<void>;
}

function checkValue(name: string, kind: OptionKind, value: string): void {
  if (kind === 'number') {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0)
      throw new UsageError(`--${name} must be a positive number, got ${value}`);
  } else if (kind === 'count') {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be a whole number, got ${value}`);
  } else if (kind === 'list') {
    if (value.split(',').some((v) => v.trim() === ''))
      throw new UsageError(`--${name} must be a comma-separated list, got ${value}`);
  }
}

/** A micro benchmark's options, parsed and checked against its declarations. */
export class MicroArgs {
  readonly #options: Readonly<Record<string, MicroOption>>;
  readonly #given: ReadonlyMap<string, string | true>;

  constructor(options: Readonly<Record<string, MicroOption>>, given: ReadonlyMap<string, string | true>) {
    this.#options = options;
    this.#given = given;
    for (const [name, v] of given) {
      const o = options[name];
      if (o === undefined) throw new UsageError(`unknown option --${name}`);
      if (typeof v === 'string') checkValue(name, o.kind, v);
    }
    for (const [name, o] of Object.entries(options))
      if (o.default !== undefined) checkValue(name, o.kind, o.default);
  }

  #value(name: string): string | undefined {
    if (this.#options[name] === undefined) throw new Error(`no option --${name} declared`);
    const v = this.#given.get(name);
    return typeof v === 'string' ? v : this.#options[name]?.default;
  }

  /** A number option (its default when not given). */
  number(name: string): number {
    const v = this.#value(name);
    if (v === undefined) throw new UsageError(`--${name} is required`);
    return Number(v);
  }

  /** A text option, or undefined when neither given nor defaulted. */
  text(name: string): string | undefined {
    return this.#value(name);
  }

  /** A comma-separated option's items. */
  list(name: string): string[] {
    const v = this.#value(name);
    return v === undefined ? [] : v.split(',').map((x) => x.trim());
  }

  /** Whether a flag was given. */
  flag(name: string): boolean {
    return this.#given.get(name) === true;
  }

  /** Whether the option was on the command line. */
  given(name: string): boolean {
    return this.#given.has(name);
  }
}

/** The `parseArgs` split of a benchmark's declarations: options with a value, then flags. */
export function optionNames(
  options: Readonly<Record<string, MicroOption>>,
): [valued: string[], flags: string[]] {
  const valued: string[] = [];
  const flags: string[] = ['help'];
  for (const [name, o] of Object.entries(options)) (o.kind === 'flag' ? flags : valued).push(name);
  return [valued, flags];
}

/** `micro <name> --help`: the title, what it does, and its options with their defaults. */
export function microHelp(b: MicroBench): string {
  const lines = [`enginekit-bench micro ${b.name}: ${b.title}`, '', b.about.trimEnd(), ''];
  const entries = Object.entries(b.options);
  if (entries.length > 0) lines.push('options:');
  for (const [name, o] of entries) {
    const left = o.kind === 'flag' ? `--${name}` : `--${name} ${o.kind === 'list' ? 'A,B' : 'X'}`;
    const def = o.default === undefined ? '' : ` (default ${o.default})`;
    lines.push(`  ${left.padEnd(22)} ${o.about}${def}`);
  }
  return `${lines.join('\n')}\n`;
}

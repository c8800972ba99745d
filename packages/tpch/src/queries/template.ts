/** One TPC-H query as a qgen template. */
export interface QueryTemplate {
  /** 1–22. */
  readonly query: number;
  /** The name the specification gives it (`Pricing Summary Report`). */
  readonly title: string;
  /** The statements in order, with qgen's markers `:1`, `:2`, … and no trailing semicolon. */
  readonly statements: readonly string[];
  /** The row count of the template's `:n` (added as `limit N`); none when absent. */
  readonly limit?: number;
  /** Which statement returns the answer (Q15: the SELECT between CREATE and DROP VIEW). Default 0. */
  readonly answer?: number;
}

/** A query ready to run. */
export interface TpchQueryText {
  /** 1–22. */
  readonly query: number;
  readonly title: string;
  /** The values put in for `:1`, `:2`, … (`parameters[0]` is `:1`). */
  readonly parameters: readonly string[];
  /** Every statement, in order, without a trailing semicolon. */
  readonly statements: readonly string[];
  /** The statement whose rows are the query's answer (for all but Q15, the only one). */
  readonly answer: string;
  /** The statements as one script, each ended by `;` and a newline. */
  readonly script: string;
}

const MARKER = /:(\d+)/g;

/** The highest marker a template uses (how many parameters it needs). */
export function parameterCount(t: QueryTemplate): number {
  let n = 0;
  for (const s of t.statements) for (const m of s.matchAll(MARKER)) n = Math.max(n, Number(m[1]));
  return n;
}

/** qgen's `qsub`: each `:N` replaced by parameter N, then `limit` after the answer statement. */
export function substitute(t: QueryTemplate, parameters: readonly string[]): TpchQueryText {
  const need = parameterCount(t);
  if (parameters.length < need) {
    throw new RangeError(`query ${t.query} needs ${need} parameters, got ${parameters.length}`);
  }
  for (const [i, p] of parameters.entries()) {
    if (typeof p !== 'string') throw new TypeError(`parameters[${i}] must be a string, got ${typeof p}`);
  }
  const at = t.answer ?? 0;
  const statements = t.statements.map((s, i) => {
    const text = s.replace(MARKER, (_, n: string) => parameters[Number(n) - 1]!);
    return i === at && t.limit !== undefined ? `${text}\nlimit ${t.limit}` : text;
  });
  return textOf(t.query, t.title, parameters, statements, at);
}

/** Assembles a {@link TpchQueryText}. */
export function textOf(
  query: number,
  title: string,
  parameters: readonly string[],
  statements: readonly string[],
  answer: number,
): TpchQueryText {
  return {
    query,
    title,
    parameters: [...parameters],
    statements,
    answer: statements[answer]!,
    script: statements.map((s) => `${s};\n`).join(''),
  };
}

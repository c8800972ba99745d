// Reading a suite recorded from MariaDB by test/data/record-mariadb.mjs, and putting the engine's
// answers in the same shape (values as the text protocol sends them), so a test can compare the two.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QueryResult } from '../../src/index.js';
import { SqlError } from '../../src/index.js';

export interface RecordedColumn {
  readonly name: string;
  readonly type: number;
  readonly length: number;
  readonly decimals: number;
  readonly charset: number;
  readonly flags: number;
}

export interface RecordedStatement {
  readonly sql: string;
  readonly columns?: readonly RecordedColumn[];
  readonly rows?: readonly (readonly (string | null)[])[];
  readonly affectedRows?: number;
  readonly insertId?: string;
  readonly error?: { readonly errno: number; readonly sqlState: string; readonly message: string };
  readonly warnings?: readonly (readonly [string, number, string])[];
}

export interface RecordedScript {
  readonly name: string;
  readonly sqlMode?: string;
  readonly statements: readonly RecordedStatement[];
}

export interface RecordedSuite {
  readonly server: string;
  readonly recordedWith: string;
  readonly scripts: readonly RecordedScript[];
}

export function recordedSuite(name: string): RecordedSuite {
  const file = join(import.meta.dirname, '..', 'data', `${name}.mariadb.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as RecordedSuite;
}

/** A value as MySQL's text protocol writes it. */
export function textOf(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') {
    if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
    return String(v).replace('e+', 'e');
  }
  if (v instanceof Uint8Array) return `0x${Buffer.from(v).toString('hex')}`;
  return String(v);
}

/** What the engine answered to one statement, in the recorded shape. */
export interface EngineAnswer {
  readonly rows?: (string | null)[][];
  readonly affectedRows?: number;
  readonly error?: { readonly errno: number; readonly message: string };
}

export function answerOf(run: () => QueryResult): EngineAnswer {
  try {
    const r = run();
    if (r.types === undefined && r.columns.length === 0) return { affectedRows: r.affectedRows };
    return { rows: r.rows.map((row) => row.map(textOf)) };
  } catch (e) {
    if (e instanceof SqlError) return { error: { errno: e.errno, message: e.message } };
    // an internal failure is a difference too, listed with the others
    return { error: { errno: -1, message: String(e) } };
  }
}

/** The recorded answer in the engine's shape (values and errors only). */
export function expectedOf(st: RecordedStatement): EngineAnswer {
  if (st.error !== undefined) return { error: { errno: st.error.errno, message: st.error.message } };
  if (st.rows !== undefined) return { rows: st.rows.map((r) => [...r]) };
  return { affectedRows: st.affectedRows ?? 0 };
}

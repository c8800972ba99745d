// Reading EXPLAIN and results the way the MariaDB-recorded plan tests write their vectors.
import type { Session } from '../../src/index.js';

/** EXPLAIN's columns by position, in MariaDB's order. */
export const TABLE = 2;
export const TYPE = 3;
export const KEY = 5;
export const REF = 7;
export const EXTRA = 10;

/**
 * EXPLAIN of `sql`, a line per row: the `columns` joined by ' | ', a NULL written 'NULL' (an
 * empty Extra '', as MariaDB's client prints them).
 */
export function explainLines(s: Session, sql: string, columns: readonly number[]): string[] {
  return s
    .query(`EXPLAIN ${sql}`)
    .rows.map((e) => columns.map((c) => e[c] ?? (c === EXTRA ? '' : 'NULL')).join(' | '));
}

/** A result's rows with BIGINT-typed values (counts) as numbers, as the vectors are written. */
export function plainRows(rows: readonly (readonly unknown[])[]): unknown[][] {
  return rows.map((r) => r.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
}

/** Runs `sql` after FLUSH STATUS: its rows (plain) and those of `counters` it moved. */
export function countedRun(
  s: Session,
  sql: string,
  counters: readonly string[],
): { rows: unknown[][]; counters: Record<string, number> } {
  s.query('FLUSH STATUS');
  const rows = plainRows(s.query(sql).rows);
  return { rows, counters: movedCounters(s, counters) };
}

/** Those of `names` the session's status has away from 0 (after a FLUSH STATUS), by name. */
export function movedCounters(s: Session, names: readonly string[]): Record<string, number> {
  const st = s.status();
  return Object.fromEntries(names.filter((c) => (st[c] ?? 0) !== 0).map((c) => [c, st[c]!]));
}

// Runs parsed sqllogictest records against an adapter, one record at a time, and reports an
// outcome per record. Generic over the engine: an adapter is `{ exec(sql) → { columns, rows } }`
// (statements may return anything; a failure throws) plus an optional `close()`.
import { compareValues, formatRows } from './sql-slt-format.js';

/**
 * @typedef {{ exec(sql: string): { columns?: readonly string[], rows?: readonly (readonly unknown[])[] } | undefined, close?(): void }} SltAdapter
 * @typedef {{ index: number, ok: boolean, cause?: string, detail?: string }} SltOutcome
 */

/**
 * A short, stable description of a thrown error: its code (SqlError's `code`, or the class name)
 * and its message with literals and numbers blanked so that failures group by kind.
 * @param {unknown} e
 */
export function errorCause(e) {
  const err = /** @type {{ code?: unknown, name?: unknown, message?: unknown }} */ (e ?? {});
  const code = typeof err.code === 'string' ? err.code : typeof err.name === 'string' ? err.name : 'Error';
  const message = typeof err.message === 'string' ? err.message : String(e);
  const shape = message
    .split('\n')[0]
    .replace(/'[^']*'/g, "'…'")
    .replace(/"[^"]*"/g, '"…"')
    .replace(/`[^`]*`/g, '`…`')
    .replace(/\b\d+(\.\d+)?\b/g, 'N')
    .slice(0, 90);
  return `${code}: ${shape}`;
}

/** @param {unknown} e */
function errorText(e) {
  const err = /** @type {{ message?: unknown }} */ (e ?? {});
  return (typeof err.message === 'string' ? err.message : String(e)).split('\n')[0].slice(0, 300);
}

/**
 * Run one record (a statement or a query; others are no-ops reported as passing).
 * `labels` remembers the hash each query label produced, so every query with that label must
 * produce the same result.
 * @param {SltAdapter} adapter
 * @param {import('./sql-slt-parse.js').SltRecord} record
 * @param {Map<string, string>} labels
 * @returns {{ ok: boolean, cause?: string, detail?: string }}
 */
export function runRecord(adapter, record, labels) {
  if (record.kind === 'statement') {
    try {
      adapter.exec(record.sql);
    } catch (e) {
      if (record.expectError) return { ok: true };
      return { ok: false, cause: `statement: ${errorCause(e)}`, detail: errorText(e) };
    }
    return record.expectError
      ? { ok: false, cause: 'statement: succeeded, expected an error' }
      : { ok: true };
  }
  if (record.kind !== 'query') return { ok: true };
  let result;
  try {
    result = adapter.exec(record.sql);
  } catch (e) {
    return { ok: false, cause: `query: ${errorCause(e)}`, detail: errorText(e) };
  }
  const rows = result?.rows;
  if (rows === undefined) return { ok: false, cause: 'query: no result set' };
  const width = rows.length > 0 ? (rows[0]?.length ?? 0) : (result?.columns?.length ?? record.types.length);
  if (width !== record.types.length)
    return {
      ok: false,
      cause: 'query: wrong number of columns',
      detail: `got ${width} columns, the record's types are ${record.types}`,
    };
  const values = formatRows(rows, record.types, record.sort);
  const cmp = compareValues(values, record.expected);
  if (!cmp.ok) return { ok: false, cause: 'query: wrong result', detail: cmp.detail ?? '' };
  if (record.label !== undefined) {
    const seen = labels.get(record.label);
    if (seen === undefined) labels.set(record.label, cmp.hash);
    else if (seen !== cmp.hash)
      return {
        ok: false,
        cause: 'query: differs from an earlier query with its label',
        detail: record.label,
      };
  }
  return { ok: true };
}

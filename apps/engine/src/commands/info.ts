import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { expectOnly, parseArgs, requireString, UsageError } from '../cli-args.js';
import { Database } from '../storage/database.js';
import { isUserError } from './load.js';

/** One row of `enginekit info`. */
export interface IndexInfo {
  readonly table: string;
  readonly rows: number;
  readonly index: string;
  readonly columns: readonly string[];
  readonly pages: number;
  readonly bytes: number;
  readonly height: number;
  readonly entries: number;
}

/**
 * Tables, row counts, and per index: pages, bytes and height. Index figures come from SYS_STATS
 * (written by ANALYZE, which `tpch load` runs) unless `exact` is set or an index has none; then
 * the tree is walked (every page read).
 */
export function describeDatabase(db: Database, exact = false): IndexInfo[] {
  const out: IndexInfo[] = [];
  const ps = db.pool.pageSize;
  for (const t of db.tables()) {
    for (const ix of [t.primary, ...t.secondary]) {
      const stored = exact ? undefined : db.catalog.indexStats(t.id, ix.id);
      const size = stored?.get('size');
      const height = stored?.get('height');
      const entries = stored?.get('n_rows');
      const base = {
        table: t.name,
        rows: t.rows,
        index: ix.name,
        columns: ix.columns.map((c) => t.columns[c]!.name),
      };
      if (size !== undefined && height !== undefined && entries !== undefined) {
        out.push({ ...base, pages: size, bytes: size * ps, height, entries });
        continue;
      }
      const s = ix.tree.stats();
      out.push({ ...base, pages: s.totalPages, bytes: s.sizeBytes, height: s.height, entries: s.records });
    }
  }
  return out;
}

/** The text `enginekit info` prints. */
export function formatInfo(db: Database, exact = false): string {
  const rows = describeDatabase(db, exact);
  const size = statSync(db.path).size;
  const ps = db.pool.pageSize;
  const lines = [
    `${db.path}: ${(size / 1e6).toFixed(1)} MB, ${Math.ceil(size / ps)} pages of ${ps} bytes, ${db.tables().length} tables`,
  ];
  const head = ['table', 'rows', 'index', 'columns', 'pages', 'bytes', 'height'];
  const body = rows.map((r) => [
    r.table,
    String(r.rows),
    r.index,
    r.columns.join(','),
    String(r.pages),
    String(r.bytes),
    String(r.height),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const numeric = new Set([1, 4, 5, 6]);
  const fmt = (cells: string[]): string =>
    cells
      .map((c, i) => (numeric.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  lines.push(fmt(head));
  let lastTable = '';
  for (const [i, b] of body.entries()) {
    const r = rows[i]!;
    if (r.table === lastTable) {
      b[0] = '';
      b[1] = '';
    }
    lastTable = r.table;
    lines.push(fmt(b));
  }
  const total = rows.reduce((a, r) => a + r.bytes, 0);
  lines.push(`index bytes total: ${(total / 1e6).toFixed(1)} MB`);
  return `${lines.join('\n')}\n`;
}

/** `enginekit info --db FILE` */
export function infoCommand(argv: readonly string[]): void {
  const args = parseArgs(argv, new Set(['exact']));
  expectOnly(args, ['db', 'exact'], 'info');
  if (args.words.length > 0) throw new UsageError(`info: unexpected argument '${args.words[0]}'`);
  const path = resolve(requireString(args, 'db', 'info'));
  let db: Database;
  try {
    db = Database.open(path);
  } catch (e) {
    if (!isUserError(e) && !(e instanceof RangeError)) throw e;
    process.stderr.write(`enginekit: info: ${e.message}\n`);
    process.exitCode = 1;
    return;
  }
  try {
    process.stdout.write(formatInfo(db, args.options.has('exact')));
  } catch (e) {
    if (!isUserError(e)) throw e;
    process.stderr.write(`enginekit: info: ${e.message}\n`);
    process.exitCode = 1;
  } finally {
    db.close();
  }
}

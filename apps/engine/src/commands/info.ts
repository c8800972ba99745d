import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { noWords, parseArgs, stringOption } from './cli-args.js';
import { Database } from '../storage/database.js';
import { probeHeader } from '../storage/header.js';
import { readRedoReadOnly } from '../storage/read-only.js';
import { resolveDatabasePath } from '../storage/real-path.js';
import { type FileVerification, verifyDatabaseFile } from '../storage/verify.js';
import { dottedName, schemaOf, tableOf } from '../storage/schema-name.js';
import { isDataError, TargetError } from './internal/failure.js';
import { writeOut } from './internal/output.js';
import { INFO } from './usage.js';

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
 * the tree is walked and checked (`checkValid`: every page read, order and links verified), and
 * a tree that fails is an error naming the index.
 */
/** A table as `info` names it: a table of `test` by its own name, one of another database as db.t. */
function displayName(stored: string): string {
  return schemaOf(stored) === 'test' ? tableOf(stored) : dottedName(stored);
}

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
        table: displayName(t.name),
        rows: t.rows,
        index: ix.name,
        columns: ix.columns.map((c) => t.columns[c]!.name),
      };
      if (size !== undefined && height !== undefined && entries !== undefined) {
        out.push({ ...base, pages: size, bytes: size * ps, height, entries });
        continue;
      }
      let s: ReturnType<typeof ix.tree.checkValid>;
      try {
        s = ix.tree.checkValid();
      } catch (e) {
        throw new TargetError(
          `index ${displayName(t.name)}.${ix.name} (root page ${ix.tree.rootPage}) fails its check: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
      out.push({ ...base, pages: s.totalPages, bytes: s.sizeBytes, height: s.height, entries: s.records });
    }
  }
  return out;
}

/** The text `enginekit info` prints. */
export function formatInfo(db: Database, exact = false, verified?: FileVerification): string {
  const rows = describeDatabase(db, exact);
  const size = statSync(db.path).size;
  const ps = db.pool.pageSize;
  const lines = [
    `${db.path}: ${(size / 1e6).toFixed(1)} MB, ${verified?.pages ?? Math.ceil(size / ps)} pages of ${ps} bytes${
      verified !== undefined && verified.filePages > verified.pages
        ? ` (and ${verified.filePages - verified.pages} zero pages the file was extended by ahead of use)`
        : ''
    }, ${db.tables().length} tables, ${db.freePages} free pages`,
  ];
  if (verified !== undefined) {
    lines.push(
      `verified: header, file length (${verified.pages} pages), every page's checksum${exact ? ', every tree' : ''}`,
    );
  }
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

/** `enginekit info --db FILE [--exact] [--quiet]` */
export function infoCommand(argv: readonly string[]): void {
  const spec = INFO.spec;
  const args = parseArgs(argv, spec);
  noWords(args, spec);
  const path = resolve(stringOption(args, 'db', spec.name));
  const exact = args.options.has('exact');
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch {
    throw new TargetError(`${path} does not exist`);
  }
  if (st.isDirectory()) throw new TargetError(`${path} is a directory, not a database file`);
  if (!st.isFile()) throw new TargetError(`${path} is not a regular file`);
  // Its log files lie beside the file the path leads to through symbolic links.
  const file = resolveDatabasePath(path);
  // A database that needs crash recovery says so first: until it is recovered its file need not
  // match its header, and verifying it would only report the symptom.
  readRedoReadOnly(file, probeHeader(file));
  const verified = verifyDatabaseFile(file);
  if (args.options.has('quiet') && !exact) return;
  let db: Database;
  try {
    // read-only: info writes nothing (no redo log created, no checkpoint, mtimes unchanged)
    db = Database.open(file, { readOnly: true });
  } catch (e) {
    if (isDataError(e)) throw e;
    // every page checked out, so what failed is the dictionary's content
    throw new TargetError(
      `${path}: the data dictionary cannot be read: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  try {
    const text = formatInfo(db, exact, verified);
    if (!args.options.has('quiet')) writeOut(text);
  } finally {
    db.abandon();
  }
}

import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeNation, writeRegion } from './internal/code-tables.js';
import { writeCustomer } from './internal/customer.js';
import { writeOrders } from './internal/orders.js';
import { writePart } from './internal/part.js';
import { chunkRange, type RowRange, type ScalePlan, SUPPLIERS_PER_PART, scalePlan } from './scale.js';
import { writeSupplier } from './internal/supplier.js';
import { type TblSink, TblWriter } from './tbl-writer.js';
import { textPool } from './internal/text-pool.js';

/** The eight TPC-H tables, in the order they are generated. */
export const TPCH_TABLES = [
  'region',
  'nation',
  'supplier',
  'customer',
  'part',
  'partsupp',
  'orders',
  'lineitem',
] as const;
export type TpchTable = (typeof TPCH_TABLES)[number];

/** A generation step: one or two tables that dbgen generates together. */
export type TpchStep = 'text' | 'region' | 'nation' | 'supplier' | 'customer' | 'part' | 'orders';

export interface GenerateOptions {
  /** Scale factor: 0 < sf < 1 (any fraction), or an integer ≥ 1. */
  readonly sf: number;
  /**
   * Output directory; created if missing. Files are `<table>.tbl`, overwritten. Or a function
   * giving each table's {@link TblSink}, to keep the output in memory or stream it elsewhere.
   */
  readonly out: string | ((table: TpchTable) => TblSink);
  /**
   * Only these tables (default: all eight). dbgen generates part with partsupp and orders with
   * lineitem in one pass, so asking for one of a pair costs the pass of both; the other's bytes
   * are discarded.
   */
  readonly tables?: readonly TpchTable[];
  /**
   * Progress: `step` advanced by `done` more units of `total` (rows of the step's master table;
   * the text pool counts as one unit).
   */
  readonly onProgress?: (step: TpchStep, done: number, total: number) => void;
  /**
   * Split generation like dbgen `-C chunks -S step`: this call writes only the `step`-th of
   * `chunks` parts of each scaled table, as `<table>.tbl.<step>`; concatenating the parts in step
   * order gives the single-file output byte for byte. nation.tbl and region.tbl are written by
   * step 1 only (dbgen rewrites them in every step). Default: one chunk, plain `<table>.tbl`.
   */
  readonly chunks?: number;
  readonly step?: number;
}

export interface GeneratedFile {
  readonly table: TpchTable;
  /** The file written, or `''` when the output went to a sink. */
  readonly path: string;
  readonly rows: number;
  readonly bytes: number;
}

export interface GenerateResult {
  readonly plan: ScalePlan;
  /** The files this call wrote, in {@link TPCH_TABLES} order. */
  readonly files: readonly GeneratedFile[];
}

/**
 * Writes the eight dbgen-format `.tbl` files for `sf` into `out`, synchronously (the work is CPU:
 * building the 300 MiB text pool, then one pass per table with 1 MiB write buffers).
 *
 * @example
 * generateTpch({ sf: 0.01, out: '/tmp/tpch' }); // region.tbl … lineitem.tbl, as `dbgen -s 0.01`
 */
export function generateTpch(options: GenerateOptions): GenerateResult {
  const plan = scalePlan(options.sf);
  const out = options.out;
  if (typeof out !== 'function' && (typeof out !== 'string' || out.length === 0)) {
    throw new TypeError(`out must be a directory path or a sink function, got ${String(out)}`);
  }
  const wanted = new Set<TpchTable>(options.tables ?? TPCH_TABLES);
  for (const t of wanted) {
    if (!TPCH_TABLES.includes(t)) throw new RangeError(`tables: unknown TPC-H table '${String(t)}'`);
  }
  const chunks = options.chunks ?? 1;
  const step = options.step ?? 1;
  chunkRange(1, chunks, step); // validates chunks and step
  const split = chunks > 1;
  const range = (rows: number): RowRange => chunkRange(rows, chunks, step);
  if (typeof out === 'string') mkdirSync(out, { recursive: true });
  const report = options.onProgress;
  const files: GeneratedFile[] = [];
  const pathOf = (table: TpchTable, scaled: boolean): string =>
    typeof out === 'string' ? join(out, split && scaled ? `${table}.tbl.${step}` : `${table}.tbl`) : '';
  const open = new Map<TblWriter, string>();
  const writer = (table: TpchTable, scaled = true): TblWriter => {
    const path = pathOf(table, scaled);
    let w: TblWriter;
    if (!wanted.has(table)) w = new TblWriter(DISCARD, DISCARD_BUFFER);
    else if (typeof out === 'string') w = new TblWriter(path);
    else w = new TblWriter(out(table));
    open.set(w, path);
    return w;
  };
  const done = (table: TpchTable, w: TblWriter, rows: number): void => {
    const path = open.get(w)!;
    open.delete(w);
    w.close();
    if (wanted.has(table)) files.push({ table, path, rows, bytes: w.bytesWritten });
  };
  const runs = (...tables: TpchTable[]): boolean => tables.some((t) => wanted.has(t));

  try {
    generateSteps();
  } catch (e) {
    // nothing half-written: close what is open and remove the files this call started
    for (const [w, path] of open) {
      try {
        w.close();
      } catch {
        // the write that failed may fail again on close; the file is removed below
      }
      if (path !== '') rmSync(path, { force: true });
    }
    throw e;
  }
  return { plan, files: TPCH_TABLES.flatMap((t) => files.filter((f) => f.table === t)) };

  function generateSteps(): void {
    report?.('text', 0, 1);
    const pool = textPool();
    report?.('text', 1, 1);

    if (step === 1 && runs('region')) {
      const w = writer('region', false);
      report?.('region', 0, plan.region);
      done('region', w, writeRegion(w, pool));
      report?.('region', plan.region, plan.region);
    }
    if (step === 1 && runs('nation')) {
      const w = writer('nation', false);
      report?.('nation', 0, plan.nation);
      done('nation', w, writeNation(w, pool));
      report?.('nation', plan.nation, plan.nation);
    }
    if (runs('supplier')) {
      const r = range(plan.supplier);
      const w = writer('supplier');
      done(
        'supplier',
        w,
        writeSupplier(w, pool, plan, (n) => report?.('supplier', n, r.count), r),
      );
    }
    if (runs('customer')) {
      const r = range(plan.customer);
      const w = writer('customer');
      done(
        'customer',
        w,
        writeCustomer(w, pool, plan, (n) => report?.('customer', n, r.count), r),
      );
    }
    if (runs('part', 'partsupp')) {
      const r = range(plan.part);
      const wp = writer('part');
      const wps = writer('partsupp');
      const parts = writePart(wp, wps, pool, plan, (n) => report?.('part', n, r.count), r);
      done('part', wp, parts);
      done('partsupp', wps, parts * SUPPLIERS_PER_PART);
    }
    if (runs('orders', 'lineitem')) {
      const r = range(plan.orders);
      const wo = writer('orders');
      const wl = writer('lineitem');
      const counter = { lines: 0 };
      const orders = writeOrders(wo, wl, pool, plan, (n) => report?.('orders', n, r.count), counter, r);
      done('orders', wo, orders);
      done('lineitem', wl, counter.lines);
    }
  }
}

/** Bytes of a table that was generated only because it shares a pass with a wanted one. */
const DISCARD: TblSink = { write: () => undefined };
const DISCARD_BUFFER = 1 << 16;

/**
 * One table's dbgen `.tbl` bytes, generated in memory (the same bytes `generateTpch` writes to
 * `<table>.tbl`). Meant for small scale factors: the result is one `Uint8Array`.
 *
 * @example
 * const nation = generateTable('nation', 0.01); // 25 rows, '0|ALGERIA|0| haggle…|\n…'
 */
export function generateTable(table: TpchTable, sf: number): Uint8Array {
  const parts: Uint8Array[] = [];
  let length = 0;
  generateTpch({
    sf,
    tables: [table],
    out: () => ({
      write(bytes: Uint8Array): void {
        parts.push(bytes.slice());
        length += bytes.length;
      },
    }),
  });
  const all = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeNation, writeRegion } from './code-tables.js';
import { writeCustomer } from './customer.js';
import { writeOrders } from './orders.js';
import { writePart } from './part.js';
import { chunkRange, type RowRange, type ScalePlan, scalePlan } from './scale.js';
import { writeSupplier } from './supplier.js';
import { TblWriter } from './tbl-writer.js';
import { textPool } from './text-pool.js';

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
  /** Output directory; created if missing. Files are `<table>.tbl`, overwritten. */
  readonly out: string;
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
  if (typeof options.out !== 'string' || options.out.length === 0) {
    throw new TypeError(`out must be a directory path, got ${String(options.out)}`);
  }
  const chunks = options.chunks ?? 1;
  const step = options.step ?? 1;
  chunkRange(1, chunks, step); // validates chunks and step
  const split = chunks > 1;
  const range = (rows: number): RowRange => chunkRange(rows, chunks, step);
  mkdirSync(options.out, { recursive: true });
  const report = options.onProgress;
  const files: GeneratedFile[] = [];
  const pathOf = (table: TpchTable, scaled: boolean): string =>
    join(options.out, split && scaled ? `${table}.tbl.${step}` : `${table}.tbl`);
  const writers = new Map<TblWriter, string>();
  const open = (table: TpchTable, scaled = true): TblWriter => {
    const w = new TblWriter(pathOf(table, scaled));
    writers.set(w, pathOf(table, scaled));
    return w;
  };
  const done = (table: TpchTable, w: TblWriter, rows: number): void => {
    w.close();
    files.push({ table, path: writers.get(w)!, rows, bytes: w.bytesWritten });
  };

  report?.('text', 0, 1);
  const pool = textPool();
  report?.('text', 1, 1);

  if (step === 1) {
    const w = open('region', false);
    report?.('region', 0, plan.region);
    done('region', w, writeRegion(w, pool));
    report?.('region', plan.region, plan.region);
    const wn = open('nation', false);
    report?.('nation', 0, plan.nation);
    done('nation', wn, writeNation(wn, pool));
    report?.('nation', plan.nation, plan.nation);
  }

  const rs = range(plan.supplier);
  const ws = open('supplier');
  done(
    'supplier',
    ws,
    writeSupplier(ws, pool, plan, (n) => report?.('supplier', n, rs.count), rs),
  );

  const rc = range(plan.customer);
  const wc = open('customer');
  done(
    'customer',
    wc,
    writeCustomer(wc, pool, plan, (n) => report?.('customer', n, rc.count), rc),
  );

  const rp = range(plan.part);
  const wp = open('part');
  const wps = open('partsupp');
  const parts = writePart(wp, wps, pool, plan, (n) => report?.('part', n, rp.count), rp);
  done('part', wp, parts);
  done('partsupp', wps, parts * 4);

  const ro = range(plan.orders);
  const wo = open('orders');
  const wl = open('lineitem');
  const counter = { lines: 0 };
  const orders = writeOrders(wo, wl, pool, plan, (n) => report?.('orders', n, ro.count), counter, ro);
  done('orders', wo, orders);
  done('lineitem', wl, counter.lines);

  return { plan, files: TPCH_TABLES.flatMap((t) => files.filter((f) => f.table === t)) };
}

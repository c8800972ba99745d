import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeNation, writeRegion } from './code-tables.js';
import { writeCustomer } from './customer.js';
import { writeOrders } from './orders.js';
import { writePart } from './part.js';
import { type ScalePlan, scalePlan } from './scale.js';
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
}

export interface GeneratedFile {
  readonly table: TpchTable;
  readonly path: string;
  readonly rows: number;
  readonly bytes: number;
}

export interface GenerateResult {
  readonly plan: ScalePlan;
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
  mkdirSync(options.out, { recursive: true });
  const report = options.onProgress;
  const files: GeneratedFile[] = [];
  const open = (table: TpchTable): TblWriter => new TblWriter(join(options.out, `${table}.tbl`));
  const done = (table: TpchTable, w: TblWriter, rows: number): void => {
    w.close();
    files.push({ table, path: join(options.out, `${table}.tbl`), rows, bytes: w.bytesWritten });
  };

  report?.('text', 0, 1);
  const pool = textPool();
  report?.('text', 1, 1);

  let w = open('region');
  report?.('region', 0, plan.region);
  done('region', w, writeRegion(w, pool));
  report?.('region', plan.region, plan.region);

  w = open('nation');
  report?.('nation', 0, plan.nation);
  done('nation', w, writeNation(w, pool));
  report?.('nation', plan.nation, plan.nation);

  w = open('supplier');
  done(
    'supplier',
    w,
    writeSupplier(w, pool, plan, (n) => report?.('supplier', n, plan.supplier)),
  );

  w = open('customer');
  done(
    'customer',
    w,
    writeCustomer(w, pool, plan, (n) => report?.('customer', n, plan.customer)),
  );

  const wp = open('part');
  const wps = open('partsupp');
  const parts = writePart(wp, wps, pool, plan, (n) => report?.('part', n, plan.part));
  done('part', wp, parts);
  done('partsupp', wps, parts * 4);

  const wo = open('orders');
  const wl = open('lineitem');
  const counter = { lines: 0 };
  const orders = writeOrders(wo, wl, pool, plan, (n) => report?.('orders', n, plan.orders), counter);
  done('orders', wo, orders);
  done('lineitem', wl, counter.lines);

  return { plan, files: TPCH_TABLES.map((t) => files.find((f) => f.table === t)!) };
}

import { ParkMiller } from '@enginekit/prng';

/** dbgen's table numbers (`dss.h`): which table a random stream belongs to. */
export const TableId = {
  none: -1,
  part: 0,
  partsupp: 1,
  supplier: 2,
  customer: 3,
  orders: 4,
  lineitem: 5,
  nation: 8,
  region: 9,
} as const;
export type TableId = (typeof TableId)[keyof typeof TableId];

/**
 * dbgen's column streams (`dss.h`, `shared.h`): every generated column draws from its own
 * Park–Miller stream, so a column's values do not depend on how many draws other columns made.
 */
export const Stream = {
  pMfg: 0,
  pBrand: 1,
  pType: 2,
  pSize: 3,
  pContainer: 4,
  textPool: 5,
  pComment: 6,
  psQty: 7,
  psSupplyCost: 8,
  psComment: 9,
  oSupp: 10,
  oClerk: 11,
  oComment: 12,
  oOrderDate: 13,
  lQuantity: 14,
  lDiscount: 15,
  lTax: 16,
  lShipInstruct: 17,
  lShipMode: 18,
  lPartKey: 19,
  lSuppKey: 20,
  lShipDate: 21,
  lCommitDate: 22,
  lReceiptDate: 23,
  lReturnFlag: 24,
  lComment: 25,
  cAddress: 26,
  cNation: 27,
  cPhone: 28,
  cAcctBal: 29,
  cMktSegment: 30,
  cComment: 31,
  sAddress: 32,
  sNation: 33,
  sPhone: 34,
  sAcctBal: 35,
  sComment: 36,
  pName: 37,
  oPriority: 38,
  hVar: 39,
  oCustKey: 40,
  nComment: 41,
  rComment: 42,
  oLineCount: 43,
  bbbJunk: 44,
  bbbType: 45,
  bbbComment: 46,
  bbbOffset: 47,
} as const;
export type Stream = (typeof Stream)[keyof typeof Stream];

/** Number of streams (dbgen's MAX_STREAM + 1). */
export const STREAM_COUNT = 48;

/**
 * dbgen's `Seed[]` table (`rnd.h`): per stream, its owning table, its initial seed and the number
 * of draws reserved per row. After each row every stream of the table is advanced to exactly that
 * many draws (`row_stop`), which is what lets dbgen start any row without generating the ones before.
 * Rows: [table, initial seed, draws per row].
 */
export const STREAM_TABLE: ReadonlyArray<readonly [TableId, number, number]> = [
  [TableId.part, 1, 1],
  [TableId.part, 46831694, 1],
  [TableId.part, 1841581359, 1],
  [TableId.part, 1193163244, 1],
  [TableId.part, 727633698, 1],
  [TableId.none, 933588178, 1],
  [TableId.part, 804159733, 2],
  [TableId.partsupp, 1671059989, 4],
  [TableId.partsupp, 1051288424, 4],
  [TableId.partsupp, 1961692154, 8],
  [TableId.orders, 1227283347, 1],
  [TableId.orders, 1171034773, 1],
  [TableId.orders, 276090261, 2],
  [TableId.orders, 1066728069, 1],
  [TableId.lineitem, 209208115, 7],
  [TableId.lineitem, 554590007, 7],
  [TableId.lineitem, 721958466, 7],
  [TableId.lineitem, 1371272478, 7],
  [TableId.lineitem, 675466456, 7],
  [TableId.lineitem, 1808217256, 7],
  [TableId.lineitem, 2095021727, 7],
  [TableId.lineitem, 1769349045, 7],
  [TableId.lineitem, 904914315, 7],
  [TableId.lineitem, 373135028, 7],
  [TableId.lineitem, 717419739, 7],
  [TableId.lineitem, 1095462486, 14],
  [TableId.customer, 881155353, 9],
  [TableId.customer, 1489529863, 1],
  [TableId.customer, 1521138112, 3],
  [TableId.customer, 298370230, 1],
  [TableId.customer, 1140279430, 1],
  [TableId.customer, 1335826707, 2],
  [TableId.supplier, 706178559, 9],
  [TableId.supplier, 110356601, 1],
  [TableId.supplier, 884434366, 3],
  [TableId.supplier, 962338209, 1],
  [TableId.supplier, 1341315363, 2],
  [TableId.part, 709314158, 92],
  [TableId.orders, 591449447, 1],
  [TableId.lineitem, 431918286, 1],
  [TableId.orders, 851767375, 1],
  [TableId.nation, 606179079, 2],
  [TableId.region, 1500869201, 2],
  [TableId.orders, 1434868289, 1],
  [TableId.supplier, 263032577, 1],
  [TableId.supplier, 753643799, 1],
  [TableId.supplier, 202794285, 1],
  [TableId.supplier, 715851524, 1],
];

/** A skip shorter than this is done by stepping; longer ones use the O(log n) jump. */
const STEP_LIMIT = 256;

/**
 * The streams that generate one table (or a master/detail pair such as orders + lineitem), with
 * dbgen's per-row accounting: `rowStart()` zeroes the draw counters, `rowStop()` advances every
 * stream to its reserved draws per row. Draws are dbgen's `UnifInt` on a {@link ParkMiller}
 * generator from `@enginekit/prng`.
 */
export class RowStreams {
  readonly #gens: ParkMiller[];
  readonly #members: Int32Array;
  readonly #usage: Int32Array;
  readonly #boundary: Int32Array;

  /** Streams owned by any of `tables`, each at its initial seed. */
  constructor(tables: readonly TableId[]) {
    this.#gens = STREAM_TABLE.map((row) => new ParkMiller({ seed: row[1] }));
    this.#usage = new Int32Array(STREAM_COUNT);
    this.#boundary = Int32Array.from(STREAM_TABLE, (row) => row[2]);
    const members: number[] = [];
    for (let i = 0; i < STREAM_COUNT; i++) if (tables.includes(STREAM_TABLE[i]![0])) members.push(i);
    this.#members = Int32Array.from(members);
  }

  /** dbgen `UnifInt(low, high, stream)` (inclusive), counted for the row's accounting. */
  unif(stream: number, low: number, high: number): number {
    this.#usage[stream]!++;
    return this.#gens[stream]!.unifInt(low, high);
  }

  /**
   * A stream's generator, for a draw that is not a plain `UnifInt(low, high)` (a_rnd's
   * `UnifInt(0, MAX_LONG)` 32-bit wrap). REQUIRES: every such draw is reported with {@link count}.
   */
  generator(stream: number): ParkMiller {
    return this.#gens[stream]!;
  }

  /** Count `n` draws made outside {@link unif}, so `rowStop` tops up the right amount. */
  count(stream: number, n: number): void {
    this.#usage[stream]! += n;
  }

  /** dbgen `row_start`. */
  rowStart(): void {
    this.#usage.fill(0);
  }

  /** dbgen `row_stop`: advance each of the table's streams to its per-row reservation. */
  rowStop(): void {
    const m = this.#members;
    for (let k = 0; k < m.length; k++) {
      const s = m[k]!;
      const left = this.#boundary[s]! - this.#usage[s]!;
      if (left > 0) advance(this.#gens[s]!, left);
    }
  }

  /** Advance every stream of the table as if `rows` rows had been generated (dbgen's `sd_*`). */
  skipRows(rows: number): void {
    if (!Number.isSafeInteger(rows) || rows < 0) {
      throw new RangeError(`rows must be a non-negative integer, got ${rows}`);
    }
    const m = this.#members;
    for (let k = 0; k < m.length; k++) {
      const s = m[k]!;
      advance(this.#gens[s]!, rows * this.#boundary[s]!);
    }
  }

  /** Current seed of a stream (tests and diagnostics). */
  seed(stream: number): number {
    return this.#gens[stream]!.seed;
  }
}

function advance(g: ParkMiller, n: number): void {
  if (n < STEP_LIMIT) {
    for (let i = 0; i < n; i++) g.nextRaw();
  } else {
    g.skip(n);
  }
}

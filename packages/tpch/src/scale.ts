/** Base row counts per table at SF 1 (dbgen `driver.c` `tdefs`, orders/lineitem after ×10). */
export const BASE_ROWS = {
  part: 200_000,
  supplier: 10_000,
  customer: 150_000,
  orders: 1_500_000,
} as const;

/** Suppliers per part (SUPP_PER_PART): partsupp has four rows per part. */
export const SUPPLIERS_PER_PART = 4;

/**
 * What a scale factor means to dbgen (`driver.c` option `-s`): at SF ≥ 1 the integer part is the
 * multiplier (`scale = (long) sf`); below 1 the multiplier is 1 and each base count becomes
 * `trunc(trunc(1000·sf) · base / 1000)`, at least 1. The same numbers bound the foreign keys.
 */
export interface ScalePlan {
  /** The SF as given. */
  readonly sf: number;
  /** dbgen's integer `scale`. */
  readonly scale: number;
  readonly part: number;
  readonly supplier: number;
  readonly customer: number;
  /** Orders rows (lineitem rows are 1–7 per order). */
  readonly orders: number;
  readonly partsupp: number;
  readonly nation: 25;
  readonly region: 5;
  /** Highest clerk number, max(1000·scale, 1000). */
  readonly clerks: number;
}

/** dbgen's MAX_SCALE; larger SFs generate but dbgen warns they are not compliant. */
export const MAX_SCALE = 100_000;

export function scalePlan(sf: number): ScalePlan {
  if (typeof sf !== 'number' || !Number.isFinite(sf) || sf <= 0) {
    throw new RangeError(`sf must be a positive number, got ${String(sf)}`);
  }
  if (sf >= 1 && !Number.isInteger(sf)) {
    throw new RangeError(`sf above 1 must be an integer (dbgen would truncate ${sf} to ${Math.trunc(sf)})`);
  }
  let scale: number;
  let part: number = BASE_ROWS.part;
  let supplier: number = BASE_ROWS.supplier;
  let customer: number = BASE_ROWS.customer;
  let orders: number = BASE_ROWS.orders;
  if (sf < 1) {
    scale = 1;
    const intScale = Math.trunc(1000 * sf);
    const shrink = (base: number): number => Math.max(1, Math.floor((intScale * base) / 1000));
    part = shrink(part);
    supplier = shrink(supplier);
    customer = shrink(customer);
    orders = shrink(orders);
  } else {
    scale = sf;
  }
  part *= scale;
  supplier *= scale;
  customer *= scale;
  orders *= scale;
  return {
    sf,
    scale,
    part,
    supplier,
    customer,
    orders,
    partsupp: part * SUPPLIERS_PER_PART,
    nation: 25,
    region: 5,
    clerks: Math.max(scale * 1000, 1000),
  };
}

/** Rows `first … first + count − 1` of a table (1-based), e.g. one chunk of a split generation. */
export interface RowRange {
  readonly first: number;
  readonly count: number;
}

/**
 * dbgen's split of a table into `chunks` parts (`-C chunks -S step`, `set_state`): each part gets
 * `floor(rows / chunks)` rows and the last one also the remainder. `step` is 1-based.
 */
export function chunkRange(rows: number, chunks: number, step: number): RowRange {
  if (!Number.isInteger(chunks) || chunks < 1) {
    throw new RangeError(`chunks must be a positive integer, got ${chunks}`);
  }
  if (!Number.isInteger(step) || step < 1 || step > chunks) {
    throw new RangeError(`step must be an integer in [1, ${chunks}], got ${step}`);
  }
  const per = Math.floor(rows / chunks);
  const extra = step === chunks ? rows - per * chunks : 0;
  return { first: per * (step - 1) + 1, count: per + extra };
}

/**
 * dbgen's calendar (`dss.h`, `build.c` `mk_time`, `bm_utils.c` `julian`): dates are day offsets from
 * STARTDATE 1992-01-01 over TOTDATE = 2557 days (1992-01-01 … 1998-12-31), printed `YYYY-MM-DD`.
 */
export const TOTAL_DAYS = 2557;
/** 1992-01-01 as days since 1970-01-01. */
export const START_EPOCH_DAY = 8035;
/** dbgen's CURRENTDATE 95168 (1995-06-17, day 168 of 1995) as an offset from 1992-01-01. */
export const CURRENT_DAY_OFFSET = 1263;
/** Latest order date offset: TOTDATE − (L_SDTE_MAX 121 + L_RDTE_MAX 30) − 1. */
export const ORDER_DATE_MAX_OFFSET: number = TOTAL_DAYS - (121 + 30) - 1;

/** The 10 ASCII bytes of every date of the calendar, back to back (dbgen's `asc_date` table). */
export const DATE_BYTES: Uint8Array = (() => {
  const out = new Uint8Array(TOTAL_DAYS * 10);
  for (let i = 0; i < TOTAL_DAYS; i++) {
    const text = new Date((START_EPOCH_DAY + i) * 86_400_000).toISOString().slice(0, 10);
    for (let k = 0; k < 10; k++) out[i * 10 + k] = text.charCodeAt(k);
  }
  return out;
})();

/** `YYYY-MM-DD` of a day offset from 1992-01-01. */
export function dateText(offset: number): string {
  if (!Number.isInteger(offset) || offset < 0 || offset >= TOTAL_DAYS) {
    throw new RangeError(`offset must be an integer in [0, ${TOTAL_DAYS}), got ${offset}`);
  }
  return String.fromCharCode(...DATE_BYTES.subarray(offset * 10, offset * 10 + 10));
}

/**
 * In-place sort of `n` records addressed by index, for records that live in typed arrays
 * (parallel arrays or fixed-width byte records). `less(i, j)` compares records i and j;
 * `swap(i, j)` exchanges them. Quicksort with median-of-three pivots and insertion sort
 * below 16 records; the smaller side is recursed, so stack depth is O(log n).
 * Not stable: records that compare equal keep no particular order.
 */
export interface RecordSorter {
  less(i: number, j: number): boolean;
  swap(i: number, j: number): void;
}

export function sortRecords(s: RecordSorter, n: number): void {
  quick(s, 0, n - 1);
}

function quick(s: RecordSorter, lo: number, hi: number): void {
  while (hi - lo >= 16) {
    const mid = lo + ((hi - lo) >> 1);
    // Median of three ends up at mid; lo ≤ mid ≤ hi act as sentinels.
    if (s.less(mid, lo)) s.swap(mid, lo);
    if (s.less(hi, lo)) s.swap(hi, lo);
    if (s.less(hi, mid)) s.swap(hi, mid);
    s.swap(mid, hi - 1); // pivot parked at hi - 1
    const p = hi - 1;
    let i = lo;
    let j = hi - 1;
    for (;;) {
      do i++;
      while (s.less(i, p));
      do j--;
      while (s.less(p, j));
      if (i >= j) break;
      s.swap(i, j);
    }
    s.swap(i, hi - 1);
    if (i - lo < hi - i) {
      quick(s, lo, i - 1);
      lo = i + 1;
    } else {
      quick(s, i + 1, hi);
      hi = i - 1;
    }
  }
  for (let i = lo + 1; i <= hi; i++) {
    for (let j = i; j > lo && s.less(j, j - 1); j--) s.swap(j, j - 1);
  }
}

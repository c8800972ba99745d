/**
 * Belady's MIN, the offline optimum: on a miss with every frame taken, evict the page whose next
 * use lies farthest in the future. Returns one flag per access (1 = hit). O(n log n): the next
 * use of every access is found in one backward pass, and the cached pages sit in a max-heap keyed
 * by their next use (stale heap entries are skipped when popped).
 */
export function beladyHits(trace: Uint32Array, frames: number): Uint8Array {
  const n = trace.length;
  const hits = new Uint8Array(n);
  const nextUse = new Float64Array(n);
  const seen = new Map<number, number>();
  for (let i = n - 1; i >= 0; i--) {
    const p = trace[i] as number;
    nextUse[i] = seen.get(p) ?? Number.POSITIVE_INFINITY;
    seen.set(p, i);
  }
  const cached = new Map<number, number>(); // page → its next use, as last pushed
  const keys: number[] = [];
  const pages: number[] = [];
  const swap = (a: number, b: number): void => {
    const k = keys[a] as number;
    keys[a] = keys[b] as number;
    keys[b] = k;
    const p = pages[a] as number;
    pages[a] = pages[b] as number;
    pages[b] = p;
  };
  const push = (key: number, page: number): void => {
    keys.push(key);
    pages.push(page);
    let i = keys.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((keys[parent] as number) >= (keys[i] as number)) break;
      swap(parent, i);
      i = parent;
    }
  };
  const popMax = (): [number, number] => {
    const top: [number, number] = [keys[0] as number, pages[0] as number];
    const lastKey = keys.pop() as number;
    const lastPage = pages.pop() as number;
    if (keys.length > 0) {
      keys[0] = lastKey;
      pages[0] = lastPage;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < keys.length && (keys[l] as number) > (keys[m] as number)) m = l;
        if (r < keys.length && (keys[r] as number) > (keys[m] as number)) m = r;
        if (m === i) break;
        swap(i, m);
        i = m;
      }
    }
    return top;
  };
  for (let i = 0; i < n; i++) {
    const p = trace[i] as number;
    if (cached.has(p)) {
      hits[i] = 1;
    } else if (cached.size >= frames) {
      for (;;) {
        const [key, page] = popMax();
        if (cached.get(page) === key) {
          cached.delete(page);
          break;
        }
      }
    }
    const key = nextUse[i] as number;
    cached.set(p, key);
    push(key, p);
  }
  return hits;
}

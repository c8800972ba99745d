// Shared bench helper: a device of sealed pages (page i holds i; optional prev/next links).
import { FIL_NULL, initPage, MemoryDevice, sealPage, setNextPage, setPrevPage } from '../dist/index.js';

export function deviceWithPages(n, pageSize, { linked = false, shared = false } = {}) {
  const dev = new MemoryDevice(shared ? { pageSize, maxPages: n } : { pageSize });
  const p = new Uint8Array(pageSize);
  const dv = new DataView(p.buffer);
  for (let i = 0; i < n; i++) {
    initPage(p, 0, pageSize, 0, i);
    if (linked) {
      setPrevPage(p, 0, i === 0 ? FIL_NULL : i - 1);
      setNextPage(p, 0, i === n - 1 ? FIL_NULL : i + 1);
    }
    dv.setUint32(38, i);
    sealPage(p, 0, pageSize, 0, i, BigInt(i + 1));
    dev.writePage(i, p, 0);
  }
  return dev;
}

export function fakeClock() {
  let t = 0;
  return { now: () => t, advance: (ms) => (t += ms) };
}

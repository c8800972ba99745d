import { FIL_NULL, initPage, MemoryDevice, sealPage, setNextPage, setPrevPage } from '../../src/index.js';

/**
 * A memory device holding `n` sealed pages of space `space`; page i stores i in its first body
 * word and, with `linked`, points to i−1 / i+1 like the leaf level of a B+tree.
 */
export function deviceWithPages(
  n: number,
  pageSize = 512,
  options: { linked?: boolean; space?: number; shared?: boolean } = {},
): MemoryDevice {
  const space = options.space ?? 0;
  const dev = new MemoryDevice(options.shared === true ? { pageSize, maxPages: n } : { pageSize });
  const p = new Uint8Array(pageSize);
  for (let i = 0; i < n; i++) {
    initPage(p, 0, pageSize, space, i);
    if (options.linked === true) {
      setPrevPage(p, 0, i === 0 ? FIL_NULL : i - 1);
      setNextPage(p, 0, i === n - 1 ? FIL_NULL : i + 1);
    }
    new DataView(p.buffer).setUint32(38, i);
    sealPage(p, 0, pageSize, space, i, BigInt(i + 1));
    dev.writePage(i, p, 0);
  }
  return dev;
}

/** A settable millisecond clock. */
export function fakeClock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1_000_000;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

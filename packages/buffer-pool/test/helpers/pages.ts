import * as src from '../../src/index.js';

type Lib = Pick<typeof src, 'MemoryDevice' | 'initPage' | 'sealPage' | 'setNextPage' | 'setPrevPage'>;

/**
 * A memory device holding `n` sealed pages of space `space`; page i stores i in its first body
 * word and, with `linked`, points to i−1 / i+1 like the leaf level of a B+tree. `lib` is the build
 * to make it with (default: the sources; worker tests pass the built package).
 */
export function deviceWithPages(
  n: number,
  pageSize = 512,
  options: { linked?: boolean; space?: number; shared?: boolean; lib?: Lib } = {},
): src.MemoryDevice {
  const { MemoryDevice, initPage, sealPage, setNextPage, setPrevPage } = options.lib ?? src;
  const space = options.space ?? 0;
  const dev = new MemoryDevice(options.shared === true ? { pageSize, maxPages: n } : { pageSize });
  const p = new Uint8Array(pageSize);
  for (let i = 0; i < n; i++) {
    initPage(p, 0, pageSize, space, i);
    if (options.linked === true) {
      setPrevPage(p, 0, i === 0 ? src.FIL_NULL : i - 1);
      setNextPage(p, 0, i === n - 1 ? src.FIL_NULL : i + 1);
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

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { CorruptionError, readUint32BE, verifyPage } from '@enginekit/buffer-pool';
import { FileLengthError } from './errors.js';
import { HDR_PAGE_COUNT, probeHeader } from './header.js';

/** What {@link verifyDatabaseFile} checked. */
export interface FileVerification {
  readonly pageSize: number;
  /** Pages of the database: the page count page 0 records. */
  readonly pages: number;
  /** Pages the file is long: `pages`, plus the zero pages it was extended by ahead of use. */
  readonly filePages: number;
}

/** Bytes read per call while checking pages. */
const READ_BYTES = 1 << 20;

/**
 * The cheap whole-file check, without a buffer pool: the header (magic, format version, page
 * size), the file length against the page count page 0 records (pages past it must be the zero
 * pages the file is extended by ahead of use, a megabyte at a time), and every page's envelope
 * (checksum, its copy in the trailer, LSN copy, page number, space id), in file order. Throws at
 * the first failure: `NotADatabaseError` / `FormatVersionError` for the header,
 * `FileLengthError` for the length, the buffer pool's `CorruptionError` naming the page.
 */
export function verifyDatabaseFile(path: string): FileVerification {
  const pageSize = probeHeader(path);
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const per = Math.max(1, Math.floor(READ_BYTES / pageSize));
    const buf = new Uint8Array(per * pageSize);
    // page 0 first: the page count it records is only worth comparing once it checks out
    if (readSync(fd, buf, 0, pageSize, 0) < pageSize) {
      throw new FileLengthError(path, `is ${size} bytes, shorter than its first page (${pageSize} bytes)`, 0);
    }
    const bad0 = verifyPage(buf, 0, pageSize, 0, 0);
    if (bad0 !== null) throw new CorruptionError(path, 0, 0, bad0);
    const recorded = readUint32BE(buf, HDR_PAGE_COUNT);
    const whole = Math.floor(size / pageSize);
    if (size % pageSize !== 0) {
      throw new FileLengthError(
        path,
        `is ${size} bytes, not a whole number of ${pageSize}-byte pages: page ${whole} is cut short`,
        whole,
      );
    }
    if (whole < recorded) {
      throw new FileLengthError(
        path,
        `is truncated: ${whole} pages long, its header records ${recorded} (page ${whole} onwards is missing)`,
        whole,
      );
    }
    for (let first = recorded; first < whole; first += per) {
      const n = Math.min(per, whole - first);
      const got = readSync(fd, buf, 0, n * pageSize, first * pageSize);
      const written = buf.subarray(0, got).findIndex((b) => b !== 0);
      if (written >= 0) {
        throw new FileLengthError(
          path,
          `has ${whole} pages, its header records ${recorded}: page ${first + Math.floor(written / pageSize)} was written after the header (not closed cleanly)`,
          recorded,
        );
      }
    }
    for (let first = 1; first < recorded; first += per) {
      const n = Math.min(per, recorded - first);
      const got = readSync(fd, buf, 0, n * pageSize, first * pageSize);
      if (got < n * pageSize) {
        const page = first + Math.floor(got / pageSize);
        throw new FileLengthError(path, `ended while reading page ${page}`, page);
      }
      for (let i = 0; i < n; i++) {
        const bad = verifyPage(buf, i * pageSize, pageSize, 0, first + i);
        if (bad !== null) throw new CorruptionError(path, 0, first + i, bad);
      }
    }
    return { pageSize, pages: recorded, filePages: whole };
  } finally {
    closeSync(fd);
  }
}

import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { TblFormatError } from './errors.js';
import { type ColumnType, type TableDef, typeName } from './schema.js';

/** INT, or DATE as days since 1970-01-01. */
export interface IntColumn {
  readonly name: string;
  readonly type: ColumnType;
  readonly kind: 'int' | 'date';
  readonly values: Int32Array;
}

/** BIGINT, or DECIMAL(p,s) as integers × 10^s; always safe integers (p ≤ 15), never fractions. */
export interface WideColumn {
  readonly name: string;
  readonly type: ColumnType;
  readonly kind: 'bigint' | 'decimal';
  readonly values: Float64Array;
}

/** CHAR/VARCHAR: row i is bytes[offsets[i], offsets[i+1]), exactly as in the file. */
export interface TextColumn {
  readonly name: string;
  readonly type: ColumnType;
  readonly kind: 'char' | 'varchar';
  readonly bytes: Uint8Array;
  readonly offsets: Int32Array;
}

/** One parsed column. Numbers are exact: DECIMAL is an integer scaled by 10^scale. */
export type ColumnVector = IntColumn | WideColumn | TextColumn;

export interface TblData {
  readonly table: TableDef;
  readonly rows: number;
  readonly columns: readonly ColumnVector[];
}

export interface ReadOptions {
  /** Name used in error messages (default: the file's base name, or `<memory>`). */
  readonly fileName?: string;
  /** Bytes read per `read()` call (default 4 MiB). */
  readonly chunkSize?: number;
}

const PIPE = 0x7c;
const NL = 0x0a;
const CR = 0x0d;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;

interface Builder {
  reset(): void;
}

class NumBuilder<T extends Int32Array | Float64Array> implements Builder {
  values: T;
  length = 0;
  readonly #make: (n: number) => T;
  constructor(make: (n: number) => T) {
    this.#make = make;
    this.values = make(1024);
  }
  push(v: number): void {
    if (this.length === this.values.length) {
      const next = this.#make(this.values.length * 2);
      next.set(this.values);
      this.values = next;
    }
    this.values[this.length++] = v;
  }
  reset(): void {
    this.length = 0;
  }
}

class BytesBuilder implements Builder {
  bytes: Uint8Array = new Uint8Array(16384);
  offsets: Int32Array = new Int32Array(1024);
  length = 0;
  #end = 0;
  push(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    if (this.#end + n > this.bytes.length) {
      let size = this.bytes.length * 2;
      while (size < this.#end + n) size *= 2;
      const next = new Uint8Array(size);
      next.set(this.bytes.subarray(0, this.#end));
      this.bytes = next;
    }
    if (this.length + 2 > this.offsets.length) {
      const next = new Int32Array(this.offsets.length * 2);
      next.set(this.offsets);
      this.offsets = next;
    }
    const bytes = this.bytes;
    let p = this.#end;
    if (n <= 64) {
      for (let i = start; i < end; i++) bytes[p++] = src[i]!;
    } else {
      bytes.set(src.subarray(start, end), p);
      p += n;
    }
    this.#end = p;
    this.offsets[++this.length] = p;
  }
  reset(): void {
    this.length = 0;
    this.#end = 0;
    this.offsets[0] = 0;
  }
}

/** Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's days_from_civil). */
function epochDay(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function digit(b: number): number {
  const v = b - ZERO;
  return v >= 0 && v <= 9 ? v : -1;
}

/** Integer in [min, max] or NaN. */
function parseInteger(buf: Uint8Array, s: number, e: number, min: number, max: number): number {
  let neg = false;
  if (s < e && buf[s] === MINUS) {
    neg = true;
    s++;
  }
  if (s === e || e - s > 16) return Number.NaN;
  let v = 0;
  for (let i = s; i < e; i++) {
    const d = digit(buf[i]!);
    if (d < 0) return Number.NaN;
    v = v * 10 + d;
  }
  if (neg) v = 0 - v; // never -0 (it would be a distinct Float64 key)
  return v >= min && v <= max ? v : Number.NaN;
}

/** DECIMAL(p, s) text → integer × 10^s, or NaN (bad syntax, too many digits on either side). */
function parseDecimal(buf: Uint8Array, s: number, e: number, precision: number, scale: number): number {
  let neg = false;
  if (s < e && buf[s] === MINUS) {
    neg = true;
    s++;
  }
  let v = 0;
  let intDigits = 0;
  let i = s;
  for (; i < e && buf[i] !== DOT; i++) {
    const d = digit(buf[i]!);
    if (d < 0) return Number.NaN;
    v = v * 10 + d;
    intDigits++;
  }
  let frac = 0;
  if (i < e) {
    i++; // the dot
    if (i === e) return Number.NaN;
    for (; i < e; i++) {
      const d = digit(buf[i]!);
      if (d < 0 || frac === scale) return Number.NaN;
      v = v * 10 + d;
      frac++;
    }
  }
  if (intDigits === 0 && frac === 0) return Number.NaN;
  // strip leading zeros from the integer-digit count before checking the precision
  for (let k = s; k < s + intDigits - 1 && buf[k] === ZERO; k++) intDigits--;
  if (intDigits > precision - scale) return Number.NaN;
  for (; frac < scale; frac++) v *= 10;
  return neg ? 0 - v : v; // "-0.00" is 0, not -0
}

/** `YYYY-MM-DD` → days since 1970-01-01, or NaN. */
function parseDate(buf: Uint8Array, s: number, e: number): number {
  if (e - s !== 10 || buf[s + 4] !== MINUS || buf[s + 7] !== MINUS) return Number.NaN;
  let y = 0;
  for (let i = s; i < s + 4; i++) {
    const d = digit(buf[i]!);
    if (d < 0) return Number.NaN;
    y = y * 10 + d;
  }
  const m1 = digit(buf[s + 5]!);
  const m2 = digit(buf[s + 6]!);
  const d1 = digit(buf[s + 8]!);
  const d2 = digit(buf[s + 9]!);
  if (m1 < 0 || m2 < 0 || d1 < 0 || d2 < 0) return Number.NaN;
  const m = m1 * 10 + m2;
  const d = d1 * 10 + d2;
  if (m < 1 || m > 12 || d < 1) return Number.NaN;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const last = m === 2 && leap ? 29 : MONTH_DAYS[m - 1]!;
  if (d > last) return Number.NaN;
  return epochDay(y, m, d);
}

/** Number of characters of well-formed UTF-8 (no overlongs, no surrogates, ≤ U+10FFFF), or −1. */
function utf8Length(buf: Uint8Array, s: number, e: number): number {
  let chars = 0;
  let i = s;
  while (i < e) {
    const b = buf[i]!;
    if (b < 0x80) {
      i++;
    } else {
      let need: number;
      let min: number;
      let cp: number;
      if (b >= 0xc2 && b <= 0xdf) {
        need = 1;
        min = 0x80;
        cp = b & 0x1f;
      } else if (b >= 0xe0 && b <= 0xef) {
        need = 2;
        min = 0x800;
        cp = b & 0x0f;
      } else if (b >= 0xf0 && b <= 0xf4) {
        need = 3;
        min = 0x10000;
        cp = b & 0x07;
      } else {
        return -1;
      }
      if (i + need >= e) return -1;
      for (let k = 1; k <= need; k++) {
        const c = buf[i + k]!;
        if ((c & 0xc0) !== 0x80) return -1;
        cp = (cp << 6) | (c & 0x3f);
      }
      if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return -1;
      i += need + 1;
    }
    chars++;
  }
  return chars;
}

/** The bytes of a field for an error message: text as is, other bytes as \xNN, cut at 80. */
function showValue(buf: Uint8Array, s: number, e: number): string {
  const cut = Math.min(e, s + 80);
  let out = '';
  const ok = utf8Length(buf, s, cut) >= 0;
  if (ok) {
    out = new TextDecoder().decode(buf.subarray(s, cut));
  } else {
    for (let i = s; i < cut; i++) {
      const b = buf[i]!;
      out += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`;
    }
  }
  return cut < e ? `${out}…` : out;
}

/**
 * Parses dbgen `.tbl` lines into typed columns, validating each field against its DBT3 type.
 * Lines are `f1|f2|…|fn|` or `f1|…|fn` (the trailing `|` is optional); `\r\n` is accepted.
 * The first malformed field throws {@link TblFormatError}.
 */
export class TblParser {
  readonly table: TableDef;
  readonly file: string;
  readonly #types: ColumnType[];
  readonly #builders: Array<NumBuilder<Int32Array> | NumBuilder<Float64Array> | BytesBuilder>;
  readonly #fieldStart: Int32Array;
  readonly #fieldEnd: Int32Array;
  #rows = 0;

  constructor(table: TableDef, file = '<memory>') {
    this.table = table;
    this.file = file;
    this.#types = table.columns.map((c) => c.type);
    for (const c of table.columns) {
      if (c.type.kind === 'decimal' && (c.type.precision > 15 || c.type.scale > c.type.precision)) {
        throw new RangeError(
          `column ${c.name}: DECIMAL(${c.type.precision},${c.type.scale}) is not supported (p ≤ 15)`,
        );
      }
    }
    this.#builders = this.#types.map((t) => {
      switch (t.kind) {
        case 'int':
        case 'date':
          return new NumBuilder((n) => new Int32Array(n));
        case 'bigint':
        case 'decimal':
          return new NumBuilder((n) => new Float64Array(n));
        default:
          return new BytesBuilder();
      }
    });
    this.#fieldStart = new Int32Array(this.#types.length);
    this.#fieldEnd = new Int32Array(this.#types.length);
  }

  /** Rows parsed since the last {@link take}. */
  get rows(): number {
    return this.#rows;
  }

  #fail(lineNo: number, col: number, buf: Uint8Array, s: number, e: number, reason: string): never {
    const c = this.table.columns[col]!;
    throw new TblFormatError(
      this.file,
      lineNo,
      `${c.name} ${typeName(c.type)}`,
      showValue(buf, s, e),
      reason,
    );
  }

  /** Parses one line `buf[start, end)` (without its `\n`). `lineNo` is 1-based, for messages. */
  parseLine(buf: Uint8Array, start: number, end: number, lineNo: number): void {
    if (end > start && buf[end - 1] === CR) end--;
    const n = this.#types.length;
    const fs = this.#fieldStart;
    const fe = this.#fieldEnd;
    let f = 0;
    let s = start;
    for (let i = start; i < end; i++) {
      if (buf[i] === PIPE) {
        if (f === n) {
          this.#fail(lineNo, n - 1, buf, start, end, `too many fields (expected ${n})`);
        }
        fs[f] = s;
        fe[f] = i;
        f++;
        s = i + 1;
      }
    }
    if (f === n) {
      // n separators: legal only as the optional trailing one
      if (s < end) this.#fail(lineNo, n - 1, buf, start, end, `too many fields (expected ${n})`);
    } else {
      fs[f] = s;
      fe[f] = end;
      f++;
      if (f < n) this.#fail(lineNo, f, buf, start, end, `short line: ${f} of ${n} fields`);
    }
    for (let c = 0; c < n; c++) {
      const t = this.#types[c]!;
      const a = fs[c]!;
      const b = fe[c]!;
      switch (t.kind) {
        case 'int': {
          const v = parseInteger(buf, a, b, -2147483648, 2147483647);
          if (Number.isNaN(v)) this.#fail(lineNo, c, buf, a, b, 'bad integer');
          (this.#builders[c] as NumBuilder<Int32Array>).push(v);
          break;
        }
        case 'bigint': {
          const v = parseInteger(buf, a, b, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
          if (Number.isNaN(v)) this.#fail(lineNo, c, buf, a, b, 'bad integer');
          (this.#builders[c] as NumBuilder<Float64Array>).push(v);
          break;
        }
        case 'decimal': {
          const v = parseDecimal(buf, a, b, t.precision, t.scale);
          if (Number.isNaN(v)) this.#fail(lineNo, c, buf, a, b, 'bad decimal');
          (this.#builders[c] as NumBuilder<Float64Array>).push(v);
          break;
        }
        case 'date': {
          const v = parseDate(buf, a, b);
          if (Number.isNaN(v)) this.#fail(lineNo, c, buf, a, b, 'bad date');
          (this.#builders[c] as NumBuilder<Int32Array>).push(v);
          break;
        }
        default: {
          const chars = utf8Length(buf, a, b);
          if (chars < 0) this.#fail(lineNo, c, buf, a, b, 'invalid UTF-8');
          if (chars > t.length)
            this.#fail(lineNo, c, buf, a, b, `too long: ${chars} characters, max ${t.length}`);
          (this.#builders[c] as BytesBuilder).push(buf, a, b);
        }
      }
    }
    this.#rows++;
  }

  /** The rows parsed so far as column vectors (copies), and reset for the next batch. */
  take(): TblData {
    const columns = this.table.columns.map((c, i): ColumnVector => {
      const b = this.#builders[i]!;
      const kind = c.type.kind;
      if (b instanceof BytesBuilder) {
        const offsets = b.offsets.slice(0, b.length + 1);
        return {
          name: c.name,
          type: c.type,
          kind: kind as 'char' | 'varchar',
          bytes: b.bytes.slice(0, offsets[b.length]!),
          offsets,
        };
      }
      if (kind === 'int' || kind === 'date') {
        return {
          name: c.name,
          type: c.type,
          kind,
          values: (b as NumBuilder<Int32Array>).values.slice(0, b.length),
        };
      }
      return {
        name: c.name,
        type: c.type,
        kind: kind as 'bigint' | 'decimal',
        values: (b as NumBuilder<Float64Array>).values.slice(0, b.length),
      };
    });
    const rows = this.#rows;
    for (const b of this.#builders) b.reset();
    this.#rows = 0;
    return { table: this.table, rows, columns };
  }
}

/**
 * Parses a whole `.tbl` text held in memory.
 *
 * @example
 * parseTbl(new TextEncoder().encode('0|AFRICA|x|\n'), TPCH_SCHEMA.region).rows; // 1
 */
export function parseTbl(bytes: Uint8Array, table: TableDef, options: ReadOptions = {}): TblData {
  const p = new TblParser(table, options.fileName ?? '<memory>');
  let line = 0;
  let s = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === NL) {
      p.parseLine(bytes, s, i, ++line);
      s = i + 1;
    }
  }
  if (s < bytes.length) p.parseLine(bytes, s, bytes.length, ++line);
  return p.take();
}

/**
 * Streams a `.tbl` file through a parser, calling `onBatch` with every `batchRows` rows (and
 * the rest at the end). Returns the number of rows. Memory stays bounded by the batch size.
 * Throws {@link TblFormatError} at the first malformed field; batches already delivered stay
 * delivered, so an all-or-nothing caller must discard them itself.
 *
 * @example
 * readTblBatches('/tmp/tpch/lineitem.tbl', TPCH_SCHEMA.lineitem, (b) => {
 *   const price = b.columns[5]; // l_extendedprice, integer cents in a Float64Array
 * });
 */
export function readTblBatches(
  path: string,
  table: TableDef,
  onBatch: (batch: TblData) => void,
  options: ReadOptions & { readonly batchRows?: number } = {},
): number {
  const batchRows = options.batchRows ?? 65_536;
  if (!Number.isInteger(batchRows) || batchRows < 1) {
    throw new RangeError(`batchRows must be a positive integer, got ${batchRows}`);
  }
  const chunkSize = options.chunkSize ?? 4 << 20;
  if (!Number.isInteger(chunkSize) || chunkSize < 1) {
    throw new RangeError(`chunkSize must be a positive integer, got ${chunkSize}`);
  }
  const p = new TblParser(table, options.fileName ?? basename(path));
  const fd = openSync(path, 'r');
  let total = 0;
  let line = 0;
  try {
    let buf = new Uint8Array(chunkSize);
    let have = 0; // bytes of a partial line carried at buf[0, have)
    for (;;) {
      if (have === buf.length) {
        const bigger = new Uint8Array(buf.length * 2);
        bigger.set(buf);
        buf = bigger;
      }
      const n = readSync(fd, buf, have, buf.length - have, null);
      const end = have + n;
      let s = 0;
      for (let i = have; i < end; i++) {
        if (buf[i] === NL) {
          p.parseLine(buf, s, i, ++line);
          s = i + 1;
          if (p.rows === batchRows) {
            total += batchRows;
            onBatch(p.take());
          }
        }
      }
      if (n === 0) {
        if (s < end) p.parseLine(buf, s, end, ++line);
        break;
      }
      buf.copyWithin(0, s, end);
      have = end - s;
    }
  } finally {
    closeSync(fd);
  }
  if (p.rows > 0) {
    total += p.rows;
    onBatch(p.take());
  }
  return total;
}

/** Reads a whole `.tbl` file into one {@link TblData}. */
export function readTbl(path: string, table: TableDef, options: ReadOptions = {}): TblData {
  const parts: TblData[] = [];
  readTblBatches(path, table, (b) => parts.push(b), { ...options, batchRows: Number.MAX_SAFE_INTEGER });
  return parts[0] ?? new TblParser(table).take();
}

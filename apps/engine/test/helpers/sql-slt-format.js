// Result formatting as sqllogictest's reference runner prints values (src/slt_sqlite.c, and the
// ODBC driver's string-fetch path for other engines): every value becomes one line of text,
// chosen by the query's type letter, then the lines are sorted by the sort mode and compared,
// or hashed (md5 of each line followed by '\n') when the expected block is `N values hashing to H`.
import { createHash } from 'node:crypto';

const NUMERIC_PREFIX = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/;

/**
 * The leading number of a text as C's `atof` reads it (0 when there is none).
 * @param {string} s
 */
function textToNumber(s) {
  const m = NUMERIC_PREFIX.exec(s);
  return m === null ? 0 : Number(m[0]);
}

/**
 * `I`: the integer part, toward zero. Exact for BigInt and for integer or DECIMAL texts of any
 * length (integers beyond 2^53 must print exactly).
 * @param {unknown} v non-null
 */
function formatInteger(v) {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return '0';
    const t = Math.trunc(v);
    return Object.is(t, -0) ? '0' : Number.isSafeInteger(t) ? String(t) : BigInt(t).toString();
  }
  if (typeof v === 'boolean') return v ? '1' : '0';
  const s = String(v).trim();
  // exact digits for integer and fixed-point texts: drop the fraction, keep the sign unless zero
  const m = /^([+-]?)(\d+)(\.\d*)?$/.exec(s);
  if (m !== null) {
    const digits = m[2].replace(/^0+(?=\d)/, '');
    return digits === '0' ? '0' : `${m[1] === '-' ? '-' : ''}${digits}`;
  }
  return formatInteger(textToNumber(s));
}

/**
 * `R`: C's `%.3f` of the value as a double, ties to even on the exact binary value as glibc does
 * (JavaScript's toFixed rounds ties up, e.g. 0.0625).
 * @param {unknown} v non-null
 */
function formatReal(v) {
  let x;
  if (typeof v === 'number') x = v;
  else if (typeof v === 'bigint') x = Number(v);
  else if (typeof v === 'boolean') x = v ? 1 : 0;
  else x = textToNumber(String(v));
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const ax = Math.abs(x);
  if (ax >= 1e13) {
    // the reference runner's printf keeps 16 significant digits and pads the rest with zeros
    const [mant = '0', exp = '0'] = ax.toExponential(15).split('e+');
    const digits = mant.replace('.', '');
    const intDigits = Number(exp) + 1;
    const whole =
      intDigits >= digits.length
        ? digits + '0'.repeat(intDigits - digits.length)
        : digits.slice(0, intDigits);
    const frac = intDigits >= digits.length ? '' : digits.slice(intDigits);
    return `${x < 0 ? '-' : ''}${whole}.${frac.padEnd(3, '0').slice(0, 3)}`;
  }
  let s = x.toFixed(3);
  {
    const exact = x.toFixed(40);
    const dot = exact.indexOf('.');
    const tail = exact.slice(dot + 4);
    if (/^50*$/.test(tail)) {
      // an exact tie: toFixed rounded away from zero; go to even instead when that is down
      const kept = exact.slice(0, dot + 4);
      const lastDigit = Number(kept[kept.length - 1]);
      if (lastDigit % 2 === 0) s = kept;
    }
  }
  if (/^-0\.000$/.test(s)) return '-0.000';
  return s;
}

/**
 * `T`: the text, `(empty)` for an empty string, `@` for each byte outside printable ASCII.
 * @param {unknown} v non-null
 */
function formatText(v) {
  let s;
  if (typeof v === 'string') s = v;
  else if (v instanceof Uint8Array) s = Buffer.from(v).toString('latin1');
  else s = String(v);
  if (s.length === 0) return '(empty)';
  // byte by byte as the C runner sees the UTF-8 text
  let out = '';
  let plain = true;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c < 0x20 || c > 0x7e) {
      plain = false;
      break;
    }
  }
  if (plain) return s;
  for (const b of Buffer.from(s, 'utf8')) out += b < 0x20 || b > 0x7e ? '@' : String.fromCharCode(b);
  return out;
}

/**
 * One value as the runner prints it.
 * @param {unknown} v
 * @param {string} type 'I' | 'R' | 'T'
 */
export function formatValue(v, type) {
  if (v === null || v === undefined) return 'NULL';
  if (type === 'I') return formatInteger(v);
  if (type === 'R') return formatReal(v);
  return formatText(v);
}

/** @param {string} a @param {string} b */
const byteOrder = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Format rows by the type letters and apply the sort mode; returns the flat list of lines.
 * Columns beyond the type letters print as text.
 * @param {readonly (readonly unknown[])[]} rows
 * @param {string} types
 * @param {'nosort'|'rowsort'|'valuesort'} sort
 * @returns {string[]}
 */
export function formatRows(rows, types, sort) {
  /** @type {string[][]} */
  const text = rows.map((r) => r.map((v, c) => formatValue(v, types[c] ?? 'T')));
  if (sort === 'rowsort') {
    text.sort((a, b) => {
      for (let c = 0; c < a.length; c++) {
        const d = byteOrder(a[c] ?? '', b[c] ?? '');
        if (d !== 0) return d;
      }
      return 0;
    });
  }
  const flat = text.flat();
  if (sort === 'valuesort') flat.sort(byteOrder);
  return flat;
}

/**
 * md5 of the lines, each followed by a newline, as the reference runner hashes a result.
 * @param {readonly string[]} values
 */
export function hashValues(values) {
  const h = createHash('md5');
  for (const v of values) h.update(`${v}\n`);
  return h.digest('hex');
}

const HASH_LINE = /^(\d+) values hashing to ([0-9a-f]{32})$/;

/**
 * Compare formatted values with a record's expected block (values, or one hash line).
 * @param {readonly string[]} got
 * @param {readonly string[]} expected
 * @returns {{ ok: boolean, hash: string, detail?: string }}
 */
export function compareValues(got, expected) {
  const hash = hashValues(got);
  const m = expected.length === 1 ? HASH_LINE.exec(expected[0] ?? '') : null;
  if (m !== null) {
    const ok = Number(m[1]) === got.length && m[2] === hash;
    return ok
      ? { ok, hash }
      : { ok, hash, detail: `got ${got.length} values hashing to ${hash}, expected ${expected[0]}` };
  }
  if (got.length === expected.length && got.every((v, k) => v === expected[k])) return { ok: true, hash };
  let k = 0;
  while (k < got.length && k < expected.length && got[k] === expected[k]) k++;
  return {
    ok: false,
    hash,
    detail: `got ${got.length} values, expected ${expected.length}; first difference at value ${k}: got ${JSON.stringify(got[k] ?? '<end>')}, expected ${JSON.stringify(expected[k] ?? '<end>')}`,
  };
}

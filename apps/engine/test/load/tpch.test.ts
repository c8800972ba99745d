// TPC-H SF 0.01 loaded with the DBT3 indexes: row counts, every index consistent with its table,
// a DuckDB cross-check of per-column aggregates computed by scanning our tables, and the load's
// all-or-nothing behaviour on a malformed .tbl line.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DBT3_KEYS,
  generateTpch,
  TblFormatError,
  TPCH_SCHEMA,
  TPCH_TABLES,
  type TpchTable,
} from '@enginekit/tpch';
import { Database, loadTpch } from '../../src/index.js';
import { TableHandler } from '../../src/handler/table-handler.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-tpch-load-'));
const tbl = join(dir, 'tbl');
const dbPath = join(dir, 'sf001.ekdb');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(() => {
  generateTpch({ sf: 0.01, out: tbl });
  loadTpch({ db: dbPath, tbl, innodb_buffer_pool_size: 32 << 20 });
}, 120_000);

const COUNTS: Record<TpchTable, number> = {
  region: 5,
  nation: 25,
  supplier: 100,
  customer: 1500,
  part: 2000,
  partsupp: 8000,
  orders: 15000,
  lineitem: 60175,
};

describe('tpch load SF 0.01', () => {
  it('creates the DBT3 schema and index set with the spec row counts, and every index matches its table', () => {
    const db = Database.open(dbPath);
    try {
      expect(db.tables().map((t) => t.name)).toEqual([...TPCH_TABLES]);
      for (const t of db.tables()) {
        const name = t.name as TpchTable;
        expect([name, t.rows]).toEqual([name, COUNTS[name]]);
        expect(t.primary.columns.map((c) => t.columns[c]!.name)).toEqual(DBT3_KEYS[name].primaryKey);
        expect(t.secondary.map((i) => [i.name, i.columns.map((c) => t.columns[c]!.name)])).toEqual(
          DBT3_KEYS[name].indexes.map((i) => [i.name, i.columns]),
        );
        t.checkIndexes();
        // ANALYZE's persistent stats were stored in SYS_STATS and survive the reopen
        for (const ix of [t.primary, ...t.secondary]) {
          const s = db.catalog.indexStats(t.id, ix.id);
          expect([t.name, ix.name, s.get('n_rows')]).toEqual([t.name, ix.name, t.rows]);
          expect(s.get('size')).toBeGreaterThanOrEqual(s.get('n_leaf_pages')!);
        }
      }
      expect(db.table('lineitem').secondary.map((i) => i.name)).toEqual([
        'i_l_shipdate',
        'i_l_suppkey_partkey',
        'i_l_partkey',
        'i_l_suppkey',
        'i_l_receiptdate',
        'i_l_orderkey',
        'i_l_orderkey_quantity',
        'i_l_commitdate',
      ]);
      // a secondary lookup reaches its rows through the primary key
      const lines: number[] = [];
      new TableHandler(db.table('lineitem')).lookup('i_l_orderkey', [1], (row) => {
        lines.push(row.nums[3]!);
        return true;
      });
      expect(lines).toEqual([1, 2, 3, 4, 5, 6]);
      // Q6's discount range selects exactly by scaled integers: 0.05 ≤ d ≤ 0.07
      const t = db.table('lineitem');
      const d = t.columnIndex('l_discount');
      const seen = new Set<number>();
      new TableHandler(t).rndScan((row) => {
        seen.add(row.nums[d]!);
        return true;
      });
      expect([...seen].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    } finally {
      db.close();
    }
  });

  it('equals DuckDB on the same .tbl files: row counts and count/min/max/count distinct/sum per column', async () => {
    const duck = await DuckDBInstance.create(':memory:');
    const conn = await duck.connect();
    const db = Database.open(dbPath);
    try {
      for (const name of TPCH_TABLES) {
        const cols = TPCH_SCHEMA[name].columns;
        const spec = cols
          .map((c) => {
            const k = c.type;
            const ty =
              k.kind === 'decimal'
                ? `DECIMAL(${k.precision},${k.scale})`
                : k.kind === 'char' || k.kind === 'varchar'
                  ? 'VARCHAR'
                  : k.kind.toUpperCase();
            return `'${c.name}':'${ty}'`;
          })
          .join(',');
        await conn.run(
          `CREATE TABLE ${name} AS SELECT * EXCLUDE (end_pad) FROM read_csv('${join(tbl, `${name}.tbl`)}', delim='|', header=false, auto_detect=false, quote='', escape='', columns={${spec},'end_pad':'VARCHAR'})`,
        );
        const mine = aggregates(db, name);
        const count = await conn.runAndReadAll(`SELECT count(*) FROM ${name}`);
        expect([name, Number(count.getRows()[0]![0])]).toEqual([name, db.table(name).rows]);
        for (const [i, c] of cols.entries()) {
          const k = c.type.kind;
          const text = k === 'char' || k === 'varchar';
          const asDays = (x: string): string => `date_diff('day', DATE '1970-01-01', ${x})`;
          const sum = text
            ? `sum(octet_length(encode(${c.name})))`
            : k === 'date'
              ? `sum(${asDays(c.name)})`
              : `sum(${c.name})`;
          const minmax =
            k === 'date'
              ? `${asDays(`min(${c.name})`)}, ${asDays(`max(${c.name})`)}`
              : `min(${c.name}), max(${c.name})`;
          const r = await conn.runAndReadAll(
            `SELECT count(${c.name}), ${minmax}, count(DISTINCT ${c.name}), ${sum} FROM ${name}`,
          );
          const theirs = r.getRows()[0]!.map((v) => String(v));
          expect([name, c.name, ...theirs]).toEqual([name, c.name, ...mine[i]!]);
        }
      }
    } finally {
      db.close();
      conn.closeSync();
    }
  }, 90_000);
});

/** count, min, max, count distinct, sum of every column, computed by one scan of our table. */
function aggregates(db: Database, name: TpchTable): string[][] {
  const t = db.table(name);
  const n = t.columns.length;
  const counts = new Array<number>(n).fill(0);
  const mins: Array<number | Buffer | undefined> = new Array(n).fill(undefined);
  const maxs: Array<number | Buffer | undefined> = new Array(n).fill(undefined);
  const sums = new Array<bigint>(n).fill(0n);
  const distinct = Array.from({ length: n }, () => new Set<number | string>());
  new TableHandler(t).rndScan((row) => {
    for (let c = 0; c < n; c++) {
      if (row.nulls[c] === 1) continue;
      counts[c]!++;
      if (row.kinds[c] === 4) {
        const b = Buffer.from(row.src[c]!.buffer, row.src[c]!.byteOffset + row.off[c]!, row.len[c]!);
        const lo = mins[c] as Buffer | undefined;
        const hi = maxs[c] as Buffer | undefined;
        if (lo === undefined || Buffer.compare(b, lo) < 0) mins[c] = Buffer.from(b);
        if (hi === undefined || Buffer.compare(b, hi) > 0) maxs[c] = Buffer.from(b);
        sums[c]! += BigInt(row.len[c]!);
        distinct[c]!.add(b.toString('latin1'));
      } else {
        const v = row.nums[c]!;
        if (mins[c] === undefined || v < (mins[c] as number)) mins[c] = v;
        if (maxs[c] === undefined || v > (maxs[c] as number)) maxs[c] = v;
        sums[c]! += BigInt(v);
        distinct[c]!.add(v);
      }
    }
    return true;
  });
  return t.columns.map((col, c) => {
    const show = (x: number | bigint | Buffer | undefined): string => {
      if (x instanceof Buffer) return x.toString('utf8');
      if (col.type.kind !== 'decimal') return String(x);
      const big = BigInt(x as number | bigint);
      const neg = big < 0n;
      const a = neg ? -big : big;
      const unit = 10n ** BigInt(col.type.scale);
      return `${neg ? '-' : ''}${a / unit}.${(a % unit).toString().padStart(col.type.scale, '0')}`;
    };
    return [String(counts[c]), show(mins[c]), show(maxs[c]), String(distinct[c]!.size), show(sums[c])];
  });
}

describe('all or nothing', () => {
  it('a malformed line leaves no database file behind, and an existing one untouched', () => {
    const bad = join(dir, 'bad');
    mkdirSync(bad);
    for (const t of TPCH_TABLES) copyFileSync(join(tbl, `${t}.tbl`), join(bad, `${t}.tbl`));
    const lines = readFileSync(join(bad, 'orders.tbl'), 'utf8').split('\n');
    lines[6] = lines[6]!.replace(/\|\d{4}-\d{2}-\d{2}\|/, '|1995-02-29|');
    writeFileSync(join(bad, 'orders.tbl'), lines.join('\n'));

    const fresh = join(dir, 'never.ekdb');
    expect(() => loadTpch({ db: fresh, tbl: bad })).toThrow(TblFormatError);
    expect(() => loadTpch({ db: fresh, tbl: bad })).toThrow(
      /orders\.tbl:7: column o_orderdate DATE: bad date: '1995-02-29'/,
    );
    expect(existsSync(fresh)).toBe(false);
    expect(existsSync(`${fresh}.loading-${process.pid}`)).toBe(false);

    const before = readFileSync(dbPath);
    const mtime = statSync(dbPath).mtimeMs;
    expect(() => loadTpch({ db: dbPath, tbl: bad })).toThrow(TblFormatError);
    expect(statSync(dbPath).mtimeMs).toBe(mtime);
    expect(readFileSync(dbPath).equals(before)).toBe(true);
  }, 60_000);
});

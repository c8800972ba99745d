// Handler counters of the TPC-H Q3 and Q10 variants equal MariaDB 10.11's on the same SF 0.01 data
// and plan: the index reads of each stage, DS-MRR's, an eq_ref stage that reuses the row of a
// repeated key (join_read_key), the GROUP BY temporary table's lookups, writes and updates, its
// scan, and the filesort that reads the sorted groups back by position.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tpchVariant } from '@enginekit/tpch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, loadTpch, Session } from '../../src/index.js';

/**
 * Q10's good plan, forced on both sides (MariaDB 10.11 picks nation → customer → orders with a
 * rowid filter on this data): the quarter of orders by i_o_orderdate, lineitem by its clustered
 * key's prefix, customer and nation by primary key.
 */
const Q10_GOOD_PLAN = tpchVariant('q10-date-add')
  .answer.replace(/^\s*select/i, 'select STRAIGHT_JOIN')
  .replace(
    /from\s+customer,\s+orders,\s+lineitem,\s+nation/i,
    'from orders FORCE INDEX (i_o_orderdate), lineitem FORCE INDEX (PRIMARY), customer, nation',
  );
const Q3 = tpchVariant('q3-force-index').answer;

/**
 * Recorded from MariaDB 10.11 (database loaded from the same dbgen SF 0.01 files, DBT3 schema and
 * indexes, ANALYZE TABLE) with, per case:
 *   SET SESSION optimizer_switch='<switches>,rowid_filter=off'; SET mrr_buffer_size=8192;
 *   FLUSH STATUS; <query>; SHOW SESSION STATUS WHERE Variable_name LIKE 'Handler_%' AND Value <> '0';
 * (Handler_commit left out: a statement's commit, not a read.) The plans are the same on both
 * sides (checked by EXPLAIN when recorded).
 */
const CASES: readonly { name: string; sql: string; switches: string; status: Record<string, number> }[] = [
  {
    name: 'Q10, ICP off, MRR off',
    sql: Q10_GOOD_PLAN,
    switches: 'index_condition_pushdown=off,mrr=off',
    status: {
      Handler_read_key: 2775,
      Handler_read_next: 3048,
      Handler_read_rnd: 20,
      Handler_read_rnd_next: 388,
      Handler_tmp_update: 807,
      Handler_tmp_write: 387,
    },
  },
  {
    name: 'Q10, ICP on, MRR off',
    sql: Q10_GOOD_PLAN,
    switches: 'index_condition_pushdown=on,mrr=off',
    status: {
      Handler_icp_attempts: 595,
      Handler_icp_match: 595,
      Handler_read_key: 2775,
      Handler_read_next: 3048,
      Handler_read_rnd: 20,
      Handler_read_rnd_next: 388,
      Handler_tmp_update: 807,
      Handler_tmp_write: 387,
    },
  },
  {
    name: 'Q10, ICP on, DS-MRR',
    sql: Q10_GOOD_PLAN,
    switches: 'index_condition_pushdown=on,mrr=on,mrr_sort_keys=on,mrr_cost_based=off',
    status: {
      Handler_icp_attempts: 595,
      Handler_icp_match: 595,
      Handler_mrr_init: 1,
      Handler_read_key: 2787,
      Handler_read_next: 3048,
      Handler_read_rnd: 615,
      Handler_read_rnd_next: 388,
      Handler_tmp_update: 807,
      Handler_tmp_write: 387,
    },
  },
  {
    name: 'Q3, ICP off, MRR off',
    sql: Q3,
    switches: 'index_condition_pushdown=off,mrr=off',
    status: {
      Handler_read_key: 2062,
      Handler_read_next: 8914,
      Handler_read_rnd: 10,
      Handler_read_rnd_next: 1609,
      Handler_tmp_update: 199,
      Handler_tmp_write: 107,
    },
  },
  {
    name: 'Q3, ICP on, DS-MRR',
    sql: Q3,
    switches: 'index_condition_pushdown=on,mrr=on,mrr_sort_keys=on,mrr_cost_based=off',
    status: {
      Handler_read_key: 2062,
      Handler_read_next: 8914,
      Handler_read_rnd: 10,
      Handler_read_rnd_next: 1609,
      Handler_tmp_update: 199,
      Handler_tmp_write: 107,
    },
  },
];

let dir = '';
let db: Database | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'enginekit-handler-'));
  loadTpch({ db: join(dir, 'tpch.ekdb'), sf: 0.01 });
  db = Database.open(join(dir, 'tpch.ekdb'), {});
}, 120_000);
afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('handler counters of the Q3 and Q10 variants, as MariaDB 10.11 (SF 0.01)', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const s = new Session(db!);
      try {
        s.query(`SET SESSION optimizer_switch='${c.switches}'`);
        s.query('SET mrr_buffer_size=8192');
        s.query('FLUSH STATUS');
        s.query(c.sql);
        const st = s.status() as unknown as Record<string, number>;
        const got: Record<string, number> = {};
        for (const [name, v] of Object.entries(st)) if (name.startsWith('Handler_') && v !== 0) got[name] = v;
        expect(got).toEqual(c.status);
      } finally {
        s.close();
      }
    });
  }
});

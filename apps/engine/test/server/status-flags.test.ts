// The server status bits of OK packets (SERVER_STATUS_IN_TRANS, SERVER_STATUS_AUTOCOMMIT,
// SERVER_STATUS_IN_TRANS_READONLY) through a statement sequence, against MariaDB 10.11.19's.
import { fileURLToPath } from 'node:url';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import type { ResultSetHeader } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Running, startServer } from '../helpers/server-helpers.js';

const engineDir = fileURLToPath(new URL('../..', import.meta.url));
beforeAll(() => buildFresh(engineDir), 300_000);

/**
 * Each statement with the `serverStatus` of MariaDB 10.11.19's OK packet, recorded through
 * mysql2 over a private mariadbd's socket (database with `CREATE TABLE t (id INT PRIMARY KEY)
 * ENGINE=InnoDB`). MariaDB also sets SERVER_STATUS_NO_INDEX_USED (0x20) on the unindexed DELETE and
 * SERVER_SESSION_STATE_CHANGED (0x4000) on the SET statements; only the transaction bits are
 * compared (mask 0x2003).
 */
const MARIADB: readonly (readonly [string, number])[] = [
  ['DELETE FROM t', 34],
  ['INSERT INTO t VALUES (1)', 2],
  ['BEGIN', 3],
  ['INSERT INTO t VALUES (2)', 3],
  ['COMMIT', 2],
  ['SET autocommit = 0', 16384],
  ['UPDATE t SET id = id + 10 WHERE id = 1', 1],
  ['ROLLBACK', 0],
  ['DELETE FROM t WHERE id = 99', 1],
  ['COMMIT', 0],
  ['SET autocommit = 1', 16386],
  ['START TRANSACTION READ ONLY', 8195],
  ['DO 1', 8195],
  ['COMMIT', 2],
  ['START TRANSACTION', 3],
  ['SAVEPOINT a', 3],
  ['ROLLBACK TO SAVEPOINT a', 3],
  ['ROLLBACK', 2],
];
const TRANSACTION_BITS = 0x2003;

describe.each([0, 2])('server status bits, %i worker threads', (threads) => {
  let srv: Running;
  beforeAll(async () => {
    srv = await startServer({}, threads);
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });

  it('OK packets say whether a transaction is open and autocommit is on, as MariaDB', async () => {
    const c = await srv.connect();
    await c.query('CREATE TABLE t (id INT PRIMARY KEY)');
    const got: [string, number][] = [];
    for (const [sql] of MARIADB) {
      const [r] = await c.query<ResultSetHeader>(sql);
      got.push([sql, r.serverStatus & TRANSACTION_BITS]);
    }
    expect(got).toEqual(MARIADB.map(([sql, s]) => [sql, s & TRANSACTION_BITS]));
  });
});

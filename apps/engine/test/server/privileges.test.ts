// Accounts and privileges over mysql2: each privilege the engine checks, granted at each level
// (global, database, table), allows its statement and nothing else; MySQL's errors 1142, 1044,
// 1227, 1045; REVOKE takes effect at the next statement; accounts live in the database file.
// The error texts are MariaDB 10.11's, recorded on a private mariadbd for an account
// 'bob'@'localhost' (`mariadb -S $SOCK -ubob -ppw t1 -e '…'`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type mysql from 'mysql2/promise';
import { afterEach, describe, expect, it } from 'vitest';
import { MysqlServer } from '../../src/server/server.js';
import { Database } from '../../src/storage/database.js';
import { type Running, startServer } from '../helpers/server-helpers.js';

let running: Running | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

const PRIVS = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'CREATE', 'DROP', 'ALTER', 'INDEX'] as const;
type Priv = (typeof PRIVS)[number];
const LEVELS = ['global', 'database', 'table'] as const;

/** The statement that needs `p` on table `t` (CREATE: `t` must not exist yet). */
function statementFor(p: Priv, t: string): string {
  switch (p) {
    case 'SELECT':
      return `SELECT a FROM ${t}`;
    case 'INSERT':
      return `INSERT INTO ${t} (a) VALUES (7)`;
    case 'UPDATE':
      return `UPDATE ${t} SET b = 1`;
    case 'DELETE':
      return `DELETE FROM ${t} WHERE 1 = 0`;
    case 'CREATE':
      return `CREATE TABLE ${t} (a INT PRIMARY KEY, b INT)`;
    case 'DROP':
      return `DROP TABLE ${t}`;
    case 'ALTER':
      return `ALTER TABLE ${t} ADD COLUMN c INT`;
    case 'INDEX':
      return `CREATE INDEX ib ON ${t} (b)`;
  }
}

async function errnoOf(p: Promise<unknown>): Promise<[number, string]> {
  return p.then(
    () => [0, ''],
    (e: { errno: number; message: string }) => [e.errno, e.message],
  );
}

describe('privileges', () => {
  it('each privilege at each level allows its statement, and every other privilege is 1142', async () => {
    running = await startServer();
    const root = await running.connect();
    for (const p of PRIVS)
      for (const l of LEVELS) {
        const user = `u_${p}_${l}`.toLowerCase();
        const t = `m_${p}_${l}`.toLowerCase();
        if (p !== 'CREATE') await root.query(`CREATE TABLE ${t} (a INT PRIMARY KEY, b INT)`);
        await root.query(`CREATE USER '${user}'@'localhost' IDENTIFIED BY 'pw'`);
        const on = l === 'global' ? '*.*' : l === 'database' ? 'test.*' : `test.${t}`;
        await root.query(`GRANT ${p} ON ${on} TO '${user}'@'localhost'`);
      }
    // a table no table-level grant names
    await root.query('CREATE TABLE other (a INT PRIMARY KEY, b INT)');
    for (const p of PRIVS)
      for (const l of LEVELS) {
        const user = `u_${p}_${l}`.toLowerCase();
        const t = `m_${p}_${l}`.toLowerCase();
        const c: mysql.Connection = await running.connect({ user, password: 'pw', database: 'test' });
        // every other privilege on the same table is refused, naming it (checked before the table exists)
        for (const q of PRIVS) {
          if (q === p) continue;
          const target = q === 'CREATE' ? `${t}_new` : t;
          const [errno, message] = await errnoOf(c.query(statementFor(q, target)));
          expect([errno, message], `${p} ${l} then ${q}`).toEqual([
            1142,
            `${q} command denied to user '${user}'@'localhost' for table \`test\`.\`${target}\``,
          ]);
        }
        expect(await errnoOf(c.query(statementFor(p, t))), `${p} ${l}`).toEqual([0, '']);
        // a table-level grant covers that table only; wider levels cover the other table too
        const elsewhere = await errnoOf(c.query(statementFor(p, p === 'CREATE' ? 'other_new' : 'other')));
        if (l === 'table') expect(elsewhere[0], `${p} ${l} elsewhere`).toBe(1142);
        else expect(elsewhere[0], `${p} ${l} elsewhere`).not.toBe(1142);
        c.destroy();
      }
  });

  it('accounts: 1044 without any grant on the database, 1045 for a wrong password, 1227 for administration', async () => {
    running = await startServer();
    const root = await running.connect();
    await root.query("CREATE USER 'bob'@'localhost' IDENTIFIED BY 'pw'");
    // MariaDB: ERROR 1044 (42000): Access denied for user 'bob'@'localhost' to database 'mysql'
    expect(await errnoOf(running.connect({ user: 'bob', password: 'pw', database: 'test' }))).toEqual([
      1044,
      "Access denied for user 'bob'@'localhost' to database 'test'",
    ]);
    expect((await errnoOf(running.connect({ user: 'bob', password: 'no' })))[0]).toBe(1045);
    expect((await errnoOf(running.connect({ user: 'nobody', password: 'pw' })))[0]).toBe(1045);
    const bob = await running.connect({ user: 'bob', password: 'pw' });
    expect(await errnoOf(bob.query('USE test'))).toEqual([
      1044,
      "Access denied for user 'bob'@'localhost' to database 'test'",
    ]);
    // MariaDB: 1227 … the SUPER privilege(s) for SET GLOBAL, CREATE USER for CREATE USER, RELOAD for FLUSH HOSTS
    expect(await errnoOf(bob.query('SET GLOBAL wait_timeout = 100'))).toEqual([
      1227,
      'Access denied; you need (at least one of) the SUPER privilege(s) for this operation',
    ]);
    expect(await errnoOf(bob.query("CREATE USER 'c'@'%'"))).toEqual([
      1227,
      'Access denied; you need (at least one of) the CREATE USER privilege(s) for this operation',
    ]);
    expect(await errnoOf(bob.query('FLUSH HOSTS'))).toEqual([
      1227,
      'Access denied; you need (at least one of) the RELOAD privilege(s) for this operation',
    ]);
    // MariaDB: 1396 for an existing or a missing account, 1133 for a grant to a missing one
    expect(await errnoOf(root.query("CREATE USER 'bob'@'localhost'"))).toEqual([
      1396,
      "Operation CREATE USER failed for 'bob'@'localhost'",
    ]);
    expect(await errnoOf(root.query("DROP USER 'nobody'@'localhost'"))).toEqual([
      1396,
      "Operation DROP USER failed for 'nobody'@'localhost'",
    ]);
    expect(await errnoOf(root.query("GRANT SELECT ON test.* TO 'nobody'@'localhost'"))).toEqual([
      1133,
      "Can't find any matching row in the user table",
    ]);
    // a grant takes effect at bob's next statement, a revoke too
    await root.query('CREATE TABLE t (a INT PRIMARY KEY, b INT)');
    expect((await errnoOf(bob.query('SELECT a FROM test.t')))[0]).toBe(1142);
    await root.query("GRANT SELECT, INSERT ON test.* TO 'bob'@'localhost'");
    await root.query("GRANT SELECT ON test.t TO 'bob'@'localhost'");
    expect(await errnoOf(bob.query('SELECT a FROM t'))).toEqual([0, '']);
    const [grants] = await bob.query('SHOW GRANTS');
    // MariaDB prints the same three lines for the same grants
    expect((grants as Array<Record<string, string>>).map((r) => Object.values(r)[0])).toEqual([
      "GRANT USAGE ON *.* TO `bob`@`localhost` IDENTIFIED BY PASSWORD '*D821809F681A40A6E379B50D0463EFAE20BDD122'",
      'GRANT SELECT, INSERT ON `test`.* TO `bob`@`localhost`',
      'GRANT SELECT ON `test`.`t` TO `bob`@`localhost`',
    ]);
    await root.query("REVOKE SELECT, INSERT ON test.* FROM 'bob'@'localhost'");
    await root.query("REVOKE SELECT ON test.t FROM 'bob'@'localhost'");
    expect((await errnoOf(bob.query('SELECT a FROM t')))[0]).toBe(1142);
    expect(await errnoOf(root.query("REVOKE SELECT ON test.t FROM 'bob'@'localhost'"))).toEqual([
      1147,
      "There is no such grant defined for user 'bob' on host 'localhost' on table 't'",
    ]);
    // ALTER USER changes the password; DROP USER ends the account's rights at once
    await root.query("ALTER USER 'bob'@'localhost' IDENTIFIED BY 'new'");
    expect((await errnoOf(running.connect({ user: 'bob', password: 'pw' })))[0]).toBe(1045);
    await running.connect({ user: 'bob', password: 'new' });
    await root.query("GRANT ALL ON test.* TO 'bob'@'localhost'");
    expect(await errnoOf(bob.query('INSERT INTO t VALUES (1, 1)'))).toEqual([0, '']);
    await root.query("DROP USER 'bob'@'localhost'");
    expect((await errnoOf(bob.query('SELECT a FROM t')))[0]).toBe(1142);
    expect((await errnoOf(running.connect({ user: 'bob', password: 'new' })))[0]).toBe(1045);
  });

  it('accounts and grants live in the database file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engine-accounts-'));
    try {
      const path = join(dir, 'a.ekdb');
      let db = Database.create(path);
      let server = new MysqlServer(db, { port: 0, password: 'rootpw' });
      let address = await server.listen();
      const mysql2 = (await import('mysql2/promise')).default;
      const port = (a: typeof address): number => ('port' in a ? a.port : 0);
      let root = await mysql2.createConnection({
        host: '127.0.0.1',
        port: port(address),
        user: 'root',
        password: 'rootpw',
      });
      await root.query('CREATE TABLE t (a INT PRIMARY KEY)');
      await root.query("CREATE USER 'ann'@'%' IDENTIFIED BY 'x'");
      await root.query("GRANT SELECT ON test.t TO 'ann'@'%'");
      root.destroy();
      await server.close();
      db.close();
      db = Database.open(path);
      // no password given: the existing administrator keeps its password
      server = new MysqlServer(db, { port: 0 });
      address = await server.listen();
      const denied = await errnoOf(
        mysql2.createConnection({ host: '127.0.0.1', port: port(address), user: 'root' }),
      );
      expect(denied[0]).toBe(1045);
      root = await mysql2.createConnection({
        host: '127.0.0.1',
        port: port(address),
        user: 'root',
        password: 'rootpw',
      });
      const ann = await mysql2.createConnection({
        host: '127.0.0.1',
        port: port(address),
        user: 'ann',
        password: 'x',
      });
      expect(await errnoOf(ann.query('SELECT a FROM t'))).toEqual([0, '']);
      expect((await errnoOf(ann.query('INSERT INTO t VALUES (1)')))[0]).toBe(1142);
      ann.destroy();
      root.destroy();
      await server.close();
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

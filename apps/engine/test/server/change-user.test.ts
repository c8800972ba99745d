// COM_CHANGE_USER through mysql2's connection.changeUser(): the steps of
// test/data/change-user.cases.mjs run on the engine's server and are compared with MariaDB
// 10.11's answers recorded in test/data/change-user.mariadb.json (the file names the command that
// recorded them: node apps/engine/test/data/record-change-user.mjs --socket PATH): the session
// starts over on a change (variables, the transaction, prepared statements), a refusal keeps the
// account and database with the session reset, three refusals end the command's use.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Connection } from 'mysql2/promise';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module shared with the recorder, without types
import { run, SETUP, STEPS } from '../data/change-user.cases.mjs';
import { type Running, startServer } from '../helpers/server-helpers.js';

interface Recorded {
  readonly server: string;
  readonly recordedWith: string;
  readonly steps: readonly unknown[];
}

const recorded = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'data', 'change-user.mariadb.json'), 'utf8'),
) as Recorded;

// the worker-thread server runs the built session worker
beforeAll(() => buildFresh(join(import.meta.dirname, '..', '..')), 300_000);

const servers: Running[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
});

async function prepared(threads = 0): Promise<{ server: Running; conn: Connection }> {
  const server = await startServer({}, threads);
  servers.push(server);
  const admin = await server.connect();
  for (const sql of SETUP as string[]) await admin.query(sql);
  const conn = await server.connect({ database: 'cu_db' });
  return { server, conn };
}

describe(`COM_CHANGE_USER against MariaDB ${recorded.server}`, () => {
  it('changes the account, resets the session, refuses as MariaDB does', async () => {
    const { conn } = await prepared();
    expect((STEPS as unknown[]).length).toBe(recorded.steps.length);
    expect(await run(conn)).toEqual(recorded.steps);
  });

  it('does the same with sessions on worker threads', async () => {
    const { conn } = await prepared(2);
    expect(await run(conn)).toEqual(recorded.steps);
  });

  it('keeps the connection id and rolls back the open transaction on a change', async () => {
    const { conn } = await prepared();
    const [[before]] = (await conn.query({ sql: 'SELECT CONNECTION_ID()', rowsAsArray: true })) as [
      unknown[][],
      unknown,
    ];
    await conn.query('BEGIN');
    await conn.query('INSERT INTO cu_db.k VALUES (9)');
    await conn.changeUser({ user: 'cu_two', password: 'pw2', database: 'cu_db' });
    const [[after]] = (await conn.query({ sql: 'SELECT CONNECTION_ID()', rowsAsArray: true })) as [
      unknown[][],
      unknown,
    ];
    expect(after).toEqual(before);
    const [rows] = await conn.query({ sql: 'SELECT COUNT(*) FROM cu_db.k', rowsAsArray: true });
    expect(rows).toEqual([[0]]);
  });

  it('closes protocol prepared statements: executing one afterwards is 1243', async () => {
    const { conn } = await prepared();
    const st = await conn.prepare('SELECT 1');
    await conn.changeUser({ user: 'cu_user', password: 'pw1', database: 'cu_db' });
    await expect(st.execute([])).rejects.toMatchObject({ errno: 1243 });
  });
});

// What the mariadb command-line client's `status` command asks (recorded from MariaDB 10.11's
// general log): DATABASE() and USER(), @@version_comment, the character-set variables, and
// COM_STATISTICS (mysql_stat), whose answer is one string packet.
import { afterAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { CommandProcessor, type Reply } from '../../src/server/command-processor.js';
import { type Running, startServer } from '../helpers/server-helpers.js';

const running: Running[] = [];
afterAll(async () => {
  for (const r of running) await r.stop();
});

describe("the mariadb client's status command", () => {
  it('answers its three queries through mysql2', async () => {
    const s = await startServer();
    running.push(s);
    const c = await s.connect();
    const [a] = await c.query({ sql: 'select DATABASE(), USER() limit 1', rowsAsArray: true });
    expect(a).toEqual([['test', 'root@localhost']]);
    const [b] = await c.query({ sql: 'select @@version_comment limit 1', rowsAsArray: true });
    expect(b).toEqual([['enginekit']]);
    const [cs] = await c.query({
      sql: 'select @@character_set_client, @@character_set_connection, @@character_set_server, @@character_set_database limit 1',
      rowsAsArray: true,
    });
    expect(cs).toEqual([['utf8mb4', 'utf8mb4', 'utf8mb4', 'utf8mb4']]);
  });

  it('answers COM_STATISTICS with the status line', () => {
    const db = Database.temporary();
    try {
      const p = new CommandProcessor(new Session(db), 7);
      p.handle(Buffer.from([0x03, ...Buffer.from('SELECT 1')]));
      const reply = p.handle(Buffer.from([0x09])) as Reply;
      const len = reply.bytes.readUIntLE(0, 3);
      expect(reply.bytes[3]).toBe(1);
      const text = reply.bytes.subarray(4, 4 + len).toString('utf8');
      expect(text).toMatch(
        /^Uptime: \d+ {2}Threads: 1 {2}Questions: 1 {2}Slow queries: 0 {2}Opens: \d+ {2}Open tables: \d+ {2}Queries per second avg: \d+\.\d{3}$/,
      );
    } finally {
      db.close();
    }
  });
});

// No internal JavaScript message reaches a client: every error a command raises is either a
// SqlError (MySQL's number, SQLSTATE and wording) or becomes 1105 with a fixed message, the
// details going to the server's log. The source is checked too: every 1105 the SQL layer raises
// by name carries a fixed, human message.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { asProtocolError, INTERNAL_MESSAGE, internalLog } from '../../src/server/client-error.js';
import { SqlError } from '../../src/sql/errors.js';
import { DuplicateEntryError } from '../../src/storage/errors.js';

const saved = internalLog.write;
afterEach(() => {
  internalLog.write = saved;
});

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('error audit', () => {
  it('JavaScript errors become 1105 with a fixed message, logged with their stack', () => {
    const logged: string[] = [];
    internalLog.write = (l) => logged.push(l);
    const cases: unknown[] = [
      new TypeError("Cannot read properties of undefined (reading 'length')"),
      new RangeError('The value of "value" is out of range. It must be >= 0 and <= 65535. Received 65536'),
      new Error('internal invariant'),
      new ReferenceError('x is not defined'),
      'a thrown string',
      { weird: true },
    ];
    for (const e of cases) {
      const p = asProtocolError(e, 7);
      expect(p).toEqual({ errno: 1105, sqlState: 'HY000', message: INTERNAL_MESSAGE });
    }
    expect(logged).toHaveLength(cases.length);
    expect(logged[0]).toMatch(/^enginekit: connection 7: internal error: TypeError: Cannot read/);
  });

  it('a stack overflow is 1436; SqlErrors and the engine’s named errors keep their text', () => {
    const recurse = (): number => recurse() + 1;
    let overflow: unknown;
    try {
      recurse();
    } catch (e) {
      overflow = e;
    }
    expect(asProtocolError(overflow).errno).toBe(1436);
    expect(asProtocolError(new SqlError('ER_NO_SUCH_TABLE', "Table 'test.x' doesn't exist"))).toEqual({
      errno: 1146,
      sqlState: '42S02',
      message: "Table 'test.x' doesn't exist",
    });
    const named = new DuplicateEntryError('t', 'PRIMARY', '5');
    expect(asProtocolError(named).message).toBe(named.message);
  });

  it('every ER_UNKNOWN_ERROR in the source has a fixed message, and no error path writes e.message raw', () => {
    const root = join(__dirname, '..', '..', 'src');
    const found: string[] = [];
    for (const file of sources(root)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/new SqlError\(\s*'ER_UNKNOWN_ERROR',\s*([^)]*)\)/g)) {
        found.push(m[1]!);
        // a string literal, not built from another error's message
        expect(m[1]!.trim(), file).toMatch(/^'[^'`$]*',?$/);
      }
      // the protocol's ERR packet is only ever built from a SqlError or asProtocolError
      if (file.includes(join('src', 'server')) && !file.endsWith('client-error.ts'))
        expect(text, file).not.toMatch(/message:\s*e(rr)?\.message/);
    }
    expect(found.length).toBeGreaterThan(0);
  });
});

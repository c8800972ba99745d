/**
 * ANALYZE [NO_WRITE_TO_BINLOG | LOCAL] TABLE t1 [, t2 …]: MySQL's form the parser does not take
 * (it knows a single table without the options). Recognized on the statement text when the parser
 * has failed on it, and returned as the parser's `Analyze` node with the list in `tables` (each an
 * ObjectName: `db.t` is two parts). A statement text holding more than this one statement is not
 * recognized.
 */
const NAME = String.raw`(?:\x60(?:[^\x60]|\x60\x60)+\x60|[A-Za-z0-9_$]+)`;
const QUALIFIED = String.raw`${NAME}(?:\s*\.\s*${NAME})?`;
const STATEMENT = new RegExp(
  String.raw`^\s*ANALYZE\s+(?:NO_WRITE_TO_BINLOG\s+|LOCAL\s+)?TABLES?\s+(${QUALIFIED}(?:\s*,\s*${QUALIFIED})*)\s*;?\s*$`,
  'i',
);
const PART = new RegExp(NAME, 'g');
const ITEM = new RegExp(QUALIFIED, 'g');

export function parseAnalyzeList(sql: string): unknown[] | undefined {
  const m = STATEMENT.exec(sql);
  if (m === null) return undefined;
  const tables = [...m[1]!.matchAll(ITEM)].map((item) =>
    [...item[0].matchAll(PART)].map((p) => {
      const t = p[0];
      const quoted = t.startsWith('`');
      return {
        Identifier: {
          value: quoted ? t.slice(1, -1).replace(/``/g, '`') : t,
          ...(quoted ? { quote_style: '`' } : {}),
        },
      };
    }),
  );
  return [{ Analyze: { table_name: tables[0], tables, has_table_keyword: true } }];
}

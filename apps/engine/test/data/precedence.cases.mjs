// Operator precedence and associativity as MariaDB parses them: every pair of binary operators
// `a op1 b op2 c` in both orders, the prefix operators (NOT, !, unary minus, ~) and the postfix and
// mixfix ones (IS, BETWEEN, LIKE, IN) beside each binary operator, `||` and `!` under the
// sql_modes that change them. Operand triples are chosen so that the two groupings of most pairs
// give different values. Recorded by `record-mariadb.mjs precedence`.

/** Values and errors are what differ between groupings; the column definitions are not kept. */
export const recordColumns = false;

export const BINARY = [
  'OR',
  '||',
  'XOR',
  'AND',
  '&&',
  '=',
  '<=>',
  '<>',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  'LIKE',
  'REGEXP',
  '|',
  '&',
  '<<',
  '>>',
  '+',
  '-',
  '*',
  '/',
  'DIV',
  '%',
  'MOD',
  '^',
];

const TRIPLES = [
  [7, 2, 3],
  [1, 0, 1],
  [0, 1, 0],
  [3, 5, 2],
];

/** Statements of one sql_mode. */
function statements(pipes) {
  const out = [];
  const ops = pipes ? ['||'] : BINARY;
  for (const op1 of BINARY)
    for (const op2 of ops) {
      for (const [a, b, c] of TRIPLES) {
        out.push(`SELECT ${a} ${op1} ${b} ${op2} ${c}`);
        if (pipes && op1 !== '||') out.push(`SELECT ${a} ${op2} ${b} ${op1} ${c}`);
      }
    }
  if (pipes) return out;
  for (const op of BINARY) {
    for (const [a, b] of [
      [1, 0],
      [2, 3],
    ]) {
      out.push(`SELECT NOT ${a} ${op} ${b}`, `SELECT ${a} ${op} NOT ${b}`);
      out.push(`SELECT !${a} ${op} ${b}`, `SELECT ${a} ${op} !${b}`);
      out.push(`SELECT -${a} ${op} ${b}`, `SELECT ${a} ${op} -${b}`);
      out.push(`SELECT ~${a} ${op} ${b}`, `SELECT ${a} ${op} ~${b}`);
      out.push(`SELECT ${a} ${op} ${b} IS NULL`, `SELECT ${a} ${op} ${b} IS NOT NULL`);
      out.push(`SELECT ${a} ${op} ${b} IS TRUE`, `SELECT ${a} ${op} ${b} IS FALSE`);
      out.push(`SELECT ${a} IS TRUE ${op} ${b}`, `SELECT ${a} IS NULL ${op} ${b}`);
      out.push(`SELECT ${a} ${op} ${b} BETWEEN 1 AND 2`, `SELECT ${a} BETWEEN 0 AND ${b} ${op} 2`);
      out.push(`SELECT ${a} BETWEEN ${b} ${op} 1 AND 2`, `SELECT ${b} NOT BETWEEN ${a} AND 2 ${op} 1`);
      out.push(`SELECT ${a} ${op} ${b} IN (0, 1)`, `SELECT ${a} IN (0, 1) ${op} ${b}`);
      out.push(`SELECT ${a} ${op} ${b} NOT IN (0, 2)`, `SELECT ${a} NOT IN (1, 3) ${op} ${b}`);
      out.push(`SELECT ${a} ${op} ${b} LIKE 1`, `SELECT ${a} LIKE ${b} ${op} 1`);
      out.push(`SELECT ${a} NOT LIKE ${b} ${op} 2`, `SELECT ${a} ${op} ${b} NOT LIKE 0`);
    }
  }
  // chains and mixfix operators with each other
  out.push(
    'SELECT 1 < 2 < 3',
    'SELECT 3 > 2 > 1',
    'SELECT 1 = 1 = 1',
    'SELECT 2 = 2 = 2',
    'SELECT 0 = 0 <> 1',
    'SELECT 3 >= 2 >= 1',
    'SELECT 1 BETWEEN 0 AND 2 BETWEEN 1 AND 1',
    'SELECT 1 LIKE 1 BETWEEN 1 AND 1',
    'SELECT 2 BETWEEN 1 AND 3 LIKE 1',
    'SELECT 1 IN (1) IN (1)',
    'SELECT 1 IN (1) LIKE 1',
    'SELECT 1 LIKE 1 IN (0)',
    'SELECT 1 IS NULL IS NULL',
    'SELECT NULL IS NULL IS NOT NULL',
    'SELECT NOT NULL IS NULL',
    'SELECT NOT 0 IS TRUE',
    'SELECT NOT 1 BETWEEN 2 AND 3',
    'SELECT NOT 1 IN (2)',
    'SELECT NOT 1 LIKE 2',
    'SELECT NOT NOT 1',
    'SELECT !!1',
    'SELECT - - 1',
    'SELECT -~1',
    'SELECT ~-1',
    'SELECT !-1',
    'SELECT -!1',
    'SELECT - 2 ^ 2',
    'SELECT ~ 2 ^ 2',
    'SELECT ! 2 ^ 2',
    'SELECT NOT 2 ^ 2',
    'SELECT 7 DIV 2 + 1',
    'SELECT 7 DIV 2 * 3',
    'SELECT 2 * 7 DIV 2',
    'SELECT 7 DIV 2 DIV 2',
    'SELECT 7 MOD 4 MOD 2',
    'SELECT 7 - 2 - 3',
    'SELECT 8 / 2 / 2',
    'SELECT 2 ^ 3 ^ 1',
    'SELECT 1 << 2 << 1',
    'SELECT 64 >> 2 >> 1',
    'SELECT 1 XOR 1 XOR 1',
    'SELECT 1 OR 1 XOR 1 AND 0',
    'SELECT 1 XOR 1 OR 1',
    'SELECT 2 BETWEEN 1 AND 3 AND 0',
    'SELECT 2 BETWEEN 1 + 1 AND 3 - 1',
    'SELECT 2 BETWEEN 7 DIV 4 AND 9 DIV 4',
    'SELECT 5 IN (2 + 3, 1) = 1',
    "SELECT 'ab' LIKE 'a%' = 1",
    "SELECT 'ab' LIKE 'a' || '%'",
    "SELECT 'a' || 'b' LIKE 'ab'",
    "SELECT 'abc' LIKE 'a!%' ESCAPE '!'",
    'SELECT 1 + 2 IS NULL',
    'SELECT NULL + 1 IS NULL',
    'SELECT 1 = 2 IS FALSE',
    'SELECT 3 & 1 = 1',
    'SELECT 1 = 3 & 1',
    'SELECT 1 | 2 = 3',
    'SELECT 3 = 1 | 2',
  );
  return out;
}

export function scripts() {
  return [
    { name: 'default sql_mode', statements: statements(false) },
    { name: 'PIPES_AS_CONCAT', sqlMode: 'PIPES_AS_CONCAT', statements: statements(true) },
    {
      name: 'HIGH_NOT_PRECEDENCE',
      sqlMode: 'HIGH_NOT_PRECEDENCE',
      statements: [
        'SELECT NOT 1 + 1',
        'SELECT NOT 0 = 1',
        'SELECT NOT 1 BETWEEN -1 AND 1',
        'SELECT NOT 0 IN (1)',
        'SELECT NOT 1 AND 0',
        'SELECT NOT 2 ^ 2',
        "SELECT NOT 'a' LIKE 'a'",
        'SELECT 1 = NOT 0',
      ],
    },
  ];
}

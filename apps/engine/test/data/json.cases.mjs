// JSON: the JSON column type (MariaDB's LONGTEXT with a json_valid check) and the JSON functions
// the engine has, with their output formatting, NULLs and warnings. Recorded from MariaDB 10.11
// with `node apps/engine/test/data/record-mariadb.mjs json --socket PATH`.

export function scripts() {
  return [
    {
      name: 'JSON functions',
      statements: [
        `SELECT JSON_EXTRACT('{"a":   [1,   2], "b": {"c": "x"}}', '$.a')`,
        `SELECT JSON_EXTRACT('{"a":   [1,   2], "b": {"c": "x"}}', '$.a[1]', '$.b.c')`,
        `SELECT JSON_EXTRACT('{"a": [1, 2], "b": {"c": "x"}}', '$.b.c'), JSON_UNQUOTE(JSON_EXTRACT('{"a": [1, 2], "b": {"c": "x"}}', '$.b.c'))`,
        `SELECT JSON_EXTRACT('[1, [2, 3], {"k": 4}]', '$[*]'), JSON_EXTRACT('{"a": 1, "b": 2}', '$.*'), JSON_EXTRACT('{"a": 1}', '$.z')`,
        `SELECT JSON_EXTRACT('[10, 20, 30]', '$[2]'), JSON_EXTRACT('[10, 20, 30]', '$[3]'), JSON_EXTRACT('{"a": {"b": [true, false, null]}}', '$.a.b')`,
        `SELECT JSON_EXTRACT('{"a": "x"}', '$."a"'), JSON_EXTRACT('{"a b": 5}', '$."a b"'), JSON_EXTRACT('{"n": -1.5e3}', '$.n')`,
        `SELECT JSON_EXTRACT('{"a": 1}', 'bad')`,
        `SELECT JSON_EXTRACT('{"a": 1', '$.a')`,
        `SELECT JSON_EXTRACT(NULL, '$.a'), JSON_EXTRACT('{"a": 1}', NULL)`,
        `SELECT JSON_VALUE('{"a": {"b": "hi"}}', '$.a.b'), JSON_VALUE('{"a": [1,2]}', '$.a'), JSON_VALUE('{"a": 1.50}', '$.a'), JSON_VALUE('{"a": null}', '$.a')`,
        `SELECT JSON_TYPE('{}'), JSON_TYPE('[1]'), JSON_TYPE('"s"'), JSON_TYPE('1'), JSON_TYPE('1.5'), JSON_TYPE('true'), JSON_TYPE('null')`,
        `SELECT JSON_TYPE('{oops')`,
        `SELECT JSON_VALID('{"a":1}'), JSON_VALID('{a:1}'), JSON_VALID(''), JSON_VALID(NULL), JSON_VALID('[1,]'), JSON_VALID(' 1 '), JSON_VALID('"\\\\u00e9"'), JSON_VALID('01')`,
        `SELECT JSON_OBJECT('a', 1, 'b', 'x', 'c', NULL, 'd', 1.5), JSON_ARRAY(1, 'two', NULL, 3.25), JSON_OBJECT(), JSON_ARRAY()`,
        `SELECT JSON_OBJECT('q', 'say "hi"', 'nested', JSON_ARRAY(1, 2))`,
        `SELECT JSON_LENGTH('[1, 2, [3]]'), JSON_LENGTH('{"a": 1, "b": 2}'), JSON_LENGTH('7'), JSON_LENGTH('[1, [2, 3]]', '$[1]'), JSON_LENGTH('[1]', '$[5]')`,
        `SELECT JSON_KEYS('{"a": 1, "b": {"c": 2}}'), JSON_KEYS('{"a": 1, "b": {"c": 2}}', '$.b'), JSON_KEYS('[1]')`,
        `SELECT JSON_QUOTE('a"b'), JSON_UNQUOTE('"tab\\\\there"'), JSON_UNQUOTE('plain'), JSON_QUOTE(NULL)`,
        `SELECT JSON_CONTAINS('{"a": [1, 2]}', '2', '$.a'), JSON_CONTAINS('{"a": [1, 2]}', '3', '$.a'), JSON_CONTAINS('{"a": 1, "b": 2}', '{"a": 1}')`,
        `SELECT JSON_CONTAINS_PATH('{"a": 1}', 'one', '$.a', '$.z'), JSON_CONTAINS_PATH('{"a": 1}', 'all', '$.a', '$.z')`,
      ],
    },
    {
      name: 'changing documents',
      statements: [
        `SELECT JSON_SET('[1, 2]', '$[5]', 3), JSON_SET('1', '$[1]', 2), JSON_SET('1', '$[0]', 2), JSON_INSERT('{"a": 1}', '$.a', 2, '$.b.c', 3), JSON_REPLACE('{"a": 1}', '$.a', 'x', '$.b', 2)`,
        `SELECT JSON_SET('{"a": {"b": 1}}', '$.a.b', JSON_OBJECT('x', 1)), JSON_SET('{}', '$.a', NULL), JSON_SET(NULL, '$.a', 1), JSON_SET('{}', NULL, 1), JSON_SET('{"a": 1}', '$.b', 1.50, '$.c', 'str', '$.b', 2)`,
        `SELECT JSON_SET('{"a": 1}', '$.a[0]', 5), JSON_SET('{"a": [1]}', '$.a[0].x', 5), JSON_INSERT('[1]', '$[0]', 9), JSON_REPLACE('[1]', '$[3]', 9), JSON_INSERT('{"a": 1}', '$.b', '[1]')`,
        `SELECT JSON_REMOVE('[1, 2, 3]', '$[1]', '$[5]'), JSON_REMOVE('{"a": {"b": 1, "c": 2}}', '$.a.b'), JSON_REMOVE('{"a": 1}', '$.z')`,
        `SELECT JSON_ARRAY_APPEND('[1, [2]]', '$[1]', 3, '$[0]', 4), JSON_ARRAY_APPEND('{"a": 1}', '$', 2), JSON_ARRAY_APPEND('{"a": [1]}', '$.a', JSON_ARRAY(2))`,
        `SELECT JSON_MERGE_PATCH('{"a": 1, "b": {"c": 1}}', '{"b": {"c": null, "d": 2}, "e": [1]}'), JSON_MERGE_PATCH('[1]', '{"a": 1}'), JSON_MERGE_PATCH('{"a": 1}', 'null'), JSON_MERGE_PATCH('{"a": 1}', '{"b": 2}', '{"a": null}')`,
        `SELECT JSON_SET('{"a": 1}', '$.*', 2)`,
        `SELECT JSON_REMOVE('{"a": 1}', '$')`,
        `SELECT JSON_SET('{bad', '$.a', 1)`,
        `SELECT JSON_SET('{}', '$.a')`,
        `SELECT JSON_ARRAY(1 = 1, TRUE, FALSE, 1 > 2, IF(1, TRUE, FALSE), 'a' LIKE 'a', NULL IS NULL, NOT 0, 1 AND 0, 5 IN (5, 6), 1, 0)`,
        `SELECT JSON_OBJECT('t', TRUE, 'c', 2 < 1, 'n', (1 = NULL)), JSON_SET('{}', '$.b', 1 = 1)`,
        'CREATE TABLE jb (id INT PRIMARY KEY)',
        'INSERT INTO jb VALUES (1), (2)',
        // truth values from subqueries and rows (MariaDB types this document binary: read as text)
        `SELECT CAST(JSON_ARRAY(1 IN (SELECT id FROM jb), 3 IN (SELECT id FROM jb), 2 > ANY (SELECT id FROM jb), 2 > ALL (SELECT id FROM jb), (1, 2) = (1, 2), (1, 2) IN ((1, 2)), (id, 1) IN (SELECT id, 1 FROM jb), EXISTS (SELECT 1 FROM jb), NOT EXISTS (SELECT 1 FROM jb WHERE id > 5)) AS CHAR) AS j FROM jb ORDER BY id`,
      ],
    },
    {
      name: 'JSON columns',
      statements: [
        'CREATE TABLE j (id INT PRIMARY KEY, d JSON)',
        `INSERT INTO j VALUES (1, '{"name": "ann", "tags": ["a", "b"], "age": 41}'), (2, '[1, 2, 3]'), (3, NULL)`,
        `INSERT INTO j VALUES (4, '{bad')`,
        `SELECT id, d FROM j ORDER BY id`,
        `SELECT id, JSON_EXTRACT(d, '$.name'), JSON_UNQUOTE(JSON_EXTRACT(d, '$.tags[1]')), JSON_VALUE(d, '$.age') + 1 FROM j ORDER BY id`,
        `SELECT id FROM j WHERE JSON_VALUE(d, '$.name') = 'ann'`,
        `SELECT id, JSON_TYPE(d), JSON_LENGTH(d) FROM j ORDER BY id`,
        `UPDATE j SET d = '{"x": 1' WHERE id = 2`,
        `UPDATE j SET d = JSON_OBJECT('x', id) WHERE id = 2`,
        `SELECT d FROM j WHERE id = 2`,
        'DESCRIBE j',
        'SHOW CREATE TABLE j',
      ],
    },
  ];
}

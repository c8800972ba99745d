// ENUM and SET columns: declaration, writes (members by text and by number, refusals in strict
// mode), reads as text and as numbers, ordering, grouping, aggregates, comparisons with strings
// and numbers, DESCRIBE and SHOW CREATE TABLE. Recorded from MariaDB 10.11 with
// `node apps/engine/test/data/record-mariadb.mjs enum-set --socket PATH`.

export function scripts() {
  return [
    {
      name: 'ENUM and SET',
      statements: [
        "CREATE TABLE e (id INT PRIMARY KEY, s ENUM('small','Medium','large ') NOT NULL, f SET('red','green','blue'), n ENUM('x','y'))",
        "INSERT INTO e VALUES (1,'large','blue,red','y'),(2,'SMALL','green','x'),(3,'medium','',NULL),(4, 2, 5, 1)",
        'SELECT * FROM e ORDER BY id',
        'SELECT id, s+0, f+0, n+0, -s FROM e ORDER BY id',
        'SELECT id FROM e ORDER BY s, id',
        'SELECT id FROM e ORDER BY s DESC, id',
        'SELECT id FROM e ORDER BY f, id',
        "SELECT id FROM e WHERE s = 'medium' ORDER BY id",
        'SELECT id FROM e WHERE s = 2 ORDER BY id',
        "SELECT id FROM e WHERE s < 'm' ORDER BY id",
        'SELECT id FROM e WHERE s < 2 ORDER BY id',
        'SELECT id FROM e WHERE s BETWEEN 2 AND 3 ORDER BY id',
        'SELECT id FROM e WHERE s IN (1, 3) ORDER BY id',
        "SELECT id FROM e WHERE s IN ('large', 'small') ORDER BY id",
        "SELECT id FROM e WHERE FIND_IN_SET('red', f) ORDER BY id",
        'SELECT MIN(s), MAX(s), SUM(s), AVG(f), COUNT(DISTINCT s) FROM e',
        'SELECT s, COUNT(*) FROM e GROUP BY s ORDER BY s',
        "SELECT CONCAT(s, '-', f), LENGTH(f), UPPER(s) FROM e ORDER BY id",
        'SELECT CAST(s AS SIGNED), CAST(f AS UNSIGNED), CAST(s AS CHAR) FROM e ORDER BY id',
        "UPDATE e SET s = 'small', f = 'green,red' WHERE id = 3",
        'SELECT s, f FROM e WHERE id = 3',
        'DESCRIBE e',
        'SHOW CREATE TABLE e',
        "INSERT INTO e VALUES (5,'huge',NULL,NULL)",
        "INSERT INTO e VALUES (5,'small','red,pink',NULL)",
        'INSERT INTO e VALUES (5,0,NULL,NULL)',
        'INSERT INTO e VALUES (5,4,NULL,NULL)',
        "INSERT INTO e VALUES (5,'',NULL,NULL)",
        "INSERT INTO e VALUES (5,'small',8,NULL)",
        'INSERT INTO e (id) VALUES (6)',
        'SELECT s, f, n FROM e WHERE id = 6',
        "INSERT INTO e VALUES (7, 'small', 'blue,red,blue', 'Y')",
        'SELECT f, n FROM e WHERE id = 7',
        "CREATE TABLE e2 (a ENUM('x','X'))",
        "CREATE TABLE e3 (a SET('x,y'))",
        "CREATE TABLE e4 (a SET('p','q') NOT NULL, b ENUM('it''s','b') DEFAULT 'b', KEY (b))",
        "INSERT INTO e4 (a) VALUES ('q,p'), ('')",
        "INSERT INTO e4 VALUES ('p', 'IT''S')",
        'SELECT a, b, a+0, b+0 FROM e4 ORDER BY b, a',
        "SELECT a FROM e4 WHERE b = 'it''s'",
        'SHOW CREATE TABLE e4',
      ],
    },
  ];
}

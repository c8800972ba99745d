// The statements of test/data/statements.cases.mjs on the engine, against MariaDB 10.11's answers
// recorded in test/data/statements.mariadb.json (the file names the command that recorded them):
// column names, type classes, values, errors, warnings and affected rows. Every difference is
// either fixed or listed in KNOWN with its reason (docs/sql.md lists them too).
import { describeRecordedSuite } from '../helpers/mariadb-suite.js';

/** Statements whose answer differs from MariaDB's, by text, with the reason (docs/sql.md lists them). */
const KNOWN: Readonly<Record<string, string>> = {
  'CREATE TRIGGER tr BEFORE INSERT ON w FOR EACH ROW SET NEW.a = 1':
    'triggers are not supported (1235), and the statement is refused before its table is looked up',
  'SELECT @s, CONCAT(@s, @d), @d * 2':
    'a DECIMAL user variable keeps its scale here; MariaDB gives arithmetic on it 38 decimals',
  'SHOW ENGINES': 'InnoDB is the one engine',
  'SELECT id, LEAD(sal, 1, 0) OVER (ORDER BY id) FROM e ORDER BY id':
    "LAG and LEAD take MySQL 8.0's third argument (the default value); MariaDB 10.11 refuses it",
  'UPDATE IGNORE ru r1 JOIN ru r2 ON r2.id = r1.id + 1 SET r1.a = r2.a':
    'MariaDB defers the updates of a table the join also reads and counts every deferred row as ' +
    'affected, the ones a duplicate key skipped too (6); the engine counts the rows it changed (1)',
  'SHOW CREATE TABLE c2':
    "the columns made from literals: MariaDB keeps a literal's display width (int(1), bigint(11)) where " +
    'the engine writes the type’s own (int(11), bigint(20)), and gives a string literal the ' +
    "connection's collation (utf8mb4_unicode_ci, which the engine does not have)",
  'SELECT * FROM c12 ORDER BY name':
    "MariaDB 10.11 loses the first 'pen' as well as the duplicate it ignored (its bulk insert into the " +
    'new table; with two rows before the duplicate it keeps it); the engine keeps the first, as INSERT IGNORE does',
};

describeRecordedSuite('statements', 'statements', KNOWN);

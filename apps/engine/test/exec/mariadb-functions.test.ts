// The date, time and string functions of test/data/functions.cases.mjs on the engine, against
// MariaDB 10.11's answers recorded in test/data/functions.mariadb.json (the file names the command
// that recorded them). Every difference is either fixed or listed in KNOWN with its reason.
import { describeRecordedSuite } from '../helpers/mariadb-suite.js';

/** Statements whose answer differs from MariaDB's, by text, with the reason (docs/sql.md lists them). */
const KNOWN: Readonly<Record<string, string>> = {
  "SELECT FIELD('b', 'a', 'b', 'c'), FIELD('z', 'a', 'b'), FIELD(NULL, 'a'), FIELD(2, 1, 2, 3), FIELD('2', 1, 2, 3), FIELD(1, 'a', '1')":
    'a string read as a number is not warned about (1292 Truncated incorrect DOUBLE value)',
  "SELECT QUOTE('Don''t!'), QUOTE(NULL), BIN(12), OCT(12), BIN(-1), MD5('abc'), SHA1('abc'), SHA2('abc', 256), SHA2('abc', 1)":
    'QUOTE(NULL) and a NULL SHA2 are strings here, binary strings in MariaDB',
  "SELECT CAST('2024-01-01 25:00:00' AS DATE), CAST('2024-01-01 23:60:00' AS DATETIME), '2024-01-01 25:00:00' + INTERVAL 1 DAY, DATE('2024-01-01 23:59:60'), DATE('2024-01-01 10')":
    'the same NULLs; a text whose time is out of range gives no 1292 Incorrect datetime value warning',
  "SELECT DATE('2024-01-01 10:'), DATE('2024-01-01T10:00:00'), DATE('2024-01-01 10:00:00 garbage'), DATE_ADD('2024-01-01', INTERVAL 1.5 MINUTE), DATE_ADD('2024-01-01', INTERVAL 1.5 MICROSECOND)":
    'the same values; text after a date and time is not warned about (1292 Truncated incorrect datetime value)',
  "SELECT DATE_ADD('2024-01-01', INTERVAL 1.49 HOUR), DATE_ADD('2024-01-01', INTERVAL 2.5 WEEK), DATE_ADD('2024-01-01', INTERVAL 1e0 DAY), DATE_ADD('2024-01-01', INTERVAL '2.9' DAY), DATE_ADD('2024-01-01', INTERVAL 0.5 QUARTER)":
    'the same values; a string read as an integer is not warned about (1292 Truncated incorrect INTEGER value)',
};

describeRecordedSuite('functions', 'functions', KNOWN);

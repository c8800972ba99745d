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
};

describeRecordedSuite('functions', 'functions', KNOWN);

// JSON columns and functions against MariaDB 10.11's answers, recorded in
// test/data/json.mariadb.json by the command that file names (test/data/json.cases.mjs holds the
// statements): values, errors, warnings and affected rows. Every difference is fixed or listed in
// KNOWN with its reason (docs/sql.md lists them too).
import { describeRecordedSuite } from '../helpers/mariadb-suite.js';

/** Statements whose answer differs from MariaDB's, by text, with the reason. */
const KNOWN: Readonly<Record<string, string>> = {
  [`SELECT JSON_EXTRACT(NULL, '$.a'), JSON_EXTRACT('{"a": 1}', NULL)`]:
    'MariaDB types JSON_EXTRACT of a NULL document as a binary string; here it stays a string (both are NULL)',
};

describeRecordedSuite('json', 'JSON', KNOWN);

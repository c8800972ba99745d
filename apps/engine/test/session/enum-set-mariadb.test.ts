// ENUM and SET against MariaDB 10.11's answers, recorded in test/data/enum-set.mariadb.json by the
// command that file names (test/data/enum-set.cases.mjs holds the statements): column names, type
// classes, values, errors, warnings and affected rows. Every difference is fixed or listed in
// KNOWN with its reason (docs/sql.md lists them too).
import { describeRecordedSuite } from '../helpers/mariadb-suite.js';

/** Statements whose answer differs from MariaDB's, by text, with the reason. */
const KNOWN: Readonly<Record<string, string>> = {};

describeRecordedSuite('enum-set', 'ENUM and SET', KNOWN);

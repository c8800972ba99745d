// SQLite's sqllogictest corpus run against enginekit as engine `mysql` (records marked
// `skipif mysql` are left out, `onlyif mysql` ones run): all 31 files, 118,940 records. Each part
// must keep at least the number of passing records pinned below, so a regression fails; raise
// the floors as the engine improves.
//
// A record running past 10 s fails as a timeout; after 5 timeouts in one file the rest of that
// file fails unrun, which bounds the run's time if the engine regresses. To give every record
// its chance (and a complete list of what fails), run
//   pnpm --filter @enginekit/engine sqllogictest
// Both write a per-file pass/fail table and the failures by cause to
// `.tmp/sqllogictest-mysql.md` at the repository root (and the full list as JSON beside it).
//
// The records run in worker threads that load the built engine (dist/); a stale or missing build
// is rebuilt first (tsup), and a build that fails fails the test.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpusFiles, corpusPart, findCorpus, REPO_ROOT } from '../helpers/sql-slt-corpus.js';
import { runSltFiles, type SltFileResult } from '../helpers/sql-slt-pool.js';
import { partTotals, reportMarkdown } from '../helpers/sql-slt-report.js';

/**
 * Records passing today, per part (of evidence 306, index 107,928, select 10,706). The 36
 * select5 records that join 62–64 tables fail with error 1116, as on MySQL and MariaDB (61 tables
 * at most).
 */
const FLOOR: Record<string, number> = { select: 10670, evidence: 282, index: 107928 };

const patient = process.env['SQLLOGICTEST_PATIENT'] === '1';
const corpus = findCorpus();
const engineDir = join(REPO_ROOT, 'apps', 'engine');
const adapterModule = new URL('../helpers/sql-slt-adapter-enginekit.js', import.meta.url).href;

describe.skipIf(corpus === undefined)('sqllogictest as engine mysql', () => {
  beforeAll(() => buildFresh(engineDir), 300_000);

  it('passes at least the pinned number of records per part', {
    timeout: patient ? 3_600_000 : 600_000,
  }, async () => {
    const dir = corpus!;
    // the biggest files first, so that the two lanes finish together
    const files = corpusFiles(dir).sort((a, b) => statSync(b).size - statSync(a).size);
    expect(files.length, 'files in the corpus').toBe(31);
    const results: SltFileResult[] = await runSltFiles(files, {
      engine: 'mysql',
      adapterModule,
      concurrency: 2,
      timeoutMs: 10_000,
      maxRestarts: patient ? 1_000_000 : 5,
    });
    const outDir = join(REPO_ROOT, '.tmp');
    mkdirSync(outDir, { recursive: true });
    results.sort((a, b) => (a.file < b.file ? -1 : 1));
    const report = reportMarkdown(dir, 'mysql', results, corpusPart);
    writeFileSync(join(outDir, 'sqllogictest-mysql.md'), report);
    writeFileSync(
      join(outDir, 'sqllogictest-mysql-failures.json'),
      JSON.stringify(
        results.map((r) => ({ file: relative(dir, r.file), failures: r.failures })),
        null,
        1,
      ),
    );
    console.log(report.split('\n## Failures by cause')[0]);
    const parts = partTotals(dir, results, corpusPart);
    for (const [part, min] of Object.entries(FLOOR)) {
      expect(parts[part]?.passed ?? 0, `records passing in ${part} (floor ${min})`).toBeGreaterThanOrEqual(
        min,
      );
    }
  });
});

if (corpus === undefined)
  it.skip('sqllogictest corpus not found (set SQLLOGICTEST_DIR to the directory holding select1.test)');

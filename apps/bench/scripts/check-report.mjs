#!/usr/bin/env node
// `pnpm --filter @enginekit/bench check:report`: the report in a real headless browser.
// Renders the latest results of the results folder (or, when it has none, quick runs of every
// experiment made here), opens the page in Debian's chromium through playwright-core, checks
// that every chart drew an <svg> with a visible box and exactly the bars or points its data
// holds, that nothing was fetched from the network, and saves a screenshot to docs/report.png.
// Needs `apt-get install chromium` (not part of the unit suite, so CI does not need it).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { EXPERIMENTS, expectedPoints, renderReport, resultsIn, runExperiment } from '../dist/index.js';

const app = join(dirname(fileURLToPath(import.meta.url)), '..');
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(executablePath)) {
  console.error(
    `check:report: no browser at ${executablePath} (apt-get install chromium, or set CHROMIUM_PATH)`,
  );
  process.exit(2);
}
const screenshot = process.argv[2] ?? join(app, '..', '..', 'docs', 'report.png');

let results = resultsIn(join(app, 'results')).filter((r) => !r.quick);
if (results.length === 0) {
  console.log('check:report: no full results in the results folder; using quick runs');
  results = [];
  for (const e of EXPERIMENTS) {
    results.push(await runExperiment(e, { quick: true, sf: undefined, seed: 20260101, log: () => {} }));
  }
}
const dir = mkdtempSync(join(tmpdir(), 'enginekit-report-check-'));
const page = join(dir, 'report.html');
writeFileSync(page, renderReport(results));

const problems = [];
const browser = await chromium.launch({
  executablePath,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  const tab = await browser.newPage({ viewport: { width: 1200, height: 1600 } });
  tab.on('request', (req) => {
    if (!req.url().startsWith('file:')) problems.push(`the page fetched ${req.url()}`);
  });
  tab.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  await tab.goto(pathToFileURL(page).href);
  const drawn = await tab.$$eval('svg[data-chart]', (svgs) =>
    svgs.map((svg) => {
      const box = svg.getBoundingClientRect();
      const kind = svg.classList.contains('chart-bars') ? 'bars' : 'lines';
      const marks = [...svg.querySelectorAll(kind === 'bars' ? 'rect.bar' : 'circle.point')];
      const visible = marks.filter((m) => {
        const b = m.getBoundingClientRect();
        return kind === 'lines' ? b.width > 0 : b.width > 0 && b.height >= 0;
      }).length;
      return { id: svg.dataset.chart, width: box.width, height: box.height, marks: marks.length, visible };
    }),
  );
  const charts = results.flatMap((r) => r.charts);
  if (drawn.length !== charts.length)
    problems.push(`${drawn.length} charts rendered, ${charts.length} in the results`);
  charts.forEach((c, i) => {
    const d = drawn[i];
    if (d === undefined) return;
    if (d.id !== c.id) problems.push(`chart ${i}: rendered ${d.id}, expected ${c.id}`);
    if (!(d.width > 100 && d.height > 100)) problems.push(`chart ${c.id}: box ${d.width}×${d.height}`);
    const want = expectedPoints(c);
    if (d.marks !== want || d.visible !== want)
      problems.push(`chart ${c.id}: ${d.marks} marks (${d.visible} visible), data has ${want}`);
  });
  await tab.screenshot({ path: screenshot, fullPage: false });
  // A second picture: the charts of one experiment (REPORT_CHARTS, default bka-q3: bars per
  // configuration, ours beside MariaDB, the buffer and pool sweeps), side by side.
  const chartsShot = screenshot.replace(/\.png$/, '-charts.png');
  const section = tab.locator(`section[data-experiment="${process.env.REPORT_CHARTS ?? 'bka-q3'}"]`);
  const target = (await section.count()) > 0 ? section : tab.locator('section').first();
  await target.locator('figure').first().scrollIntoViewIfNeeded();
  const figures = await target.locator('figure').all();
  const boxes = (await Promise.all(figures.map((f) => f.boundingBox()))).filter((b) => b !== null);
  if (boxes.length > 0) {
    const top = Math.min(...boxes.map((b) => b.y));
    const bottom = Math.max(...boxes.map((b) => b.y + b.height));
    const scroll = await tab.evaluate(() => window.scrollY);
    await tab.screenshot({
      path: chartsShot,
      fullPage: true,
      clip: { x: 0, y: Math.max(0, top + scroll - 10), width: 1200, height: Math.ceil(bottom - top) + 20 },
    });
  }
  console.log(
    `check:report: ${drawn.length} charts in ${results.length} results, every one drawn with its data points`,
  );
  console.log(`check:report: screenshots ${screenshot}, ${chartsShot}`);
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
if (problems.length > 0) {
  for (const p of problems) console.error(`  FAIL ${p}`);
  process.exit(1);
}

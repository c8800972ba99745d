#!/usr/bin/env node
// `pnpm --filter @enginekit/bench check:report`: the report in a real headless browser, at the
// width of a 1366-pixel laptop screen. Renders the latest result of each experiment in the results
// folder (full runs before quick ones; quick runs made here when the folder has none), opens the
// page in Debian's chromium through playwright-core and checks, from the laid-out boxes:
//   - every chart drew an <svg> with exactly the bars or points its data holds;
//   - no bar is zero pixels wide or high when its value is not 0;
//   - no two texts of a chart (labels, ticks, legend, titles) overlap;
//   - nothing is wider than the window: no chart, no table, no sideways scrolling of the page;
//   - nothing was fetched from the network.
// Saves screenshots to docs/report.png (the index-build section) and docs/report-charts.png (the
// charts of bka-q3), or to the folder given as the first argument. Needs chromium
// (`apt-get install chromium`, or CHROMIUM_PATH); without it the check says so and is skipped
// (exit 0), so CI does not need a browser. Not part of the unit suite.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const app = join(dirname(fileURLToPath(import.meta.url)), '..');
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(executablePath)) {
  console.log(
    `check:report: skipped: no browser at ${executablePath} (apt-get install chromium, or set CHROMIUM_PATH)`,
  );
  process.exit(0);
}
const { chromium } = await import('playwright-core');
const { EXPERIMENTS, expectedPoints, renderReport, resultsIn, runExperiment } = await import(
  '../dist/index.js'
);

const VIEWPORT = { width: 1366, height: 768 };
const shots = process.argv[2] ?? join(app, '..', '..', 'docs');

// the latest result of each experiment: a full run when there is one, else a quick one
const latest = new Map();
for (const r of resultsIn(join(app, 'results'))) {
  const had = latest.get(r.experiment);
  if (had === undefined || (had.quick && !r.quick)) latest.set(r.experiment, r);
}
let results = EXPERIMENTS.map((e) => latest.get(e.name)).filter((r) => r !== undefined);
if (results.length === 0) {
  console.log('check:report: no results in the results folder; running every experiment --quick');
  process.env.ENGINEKIT_BENCH_MARIADB ??= '0';
  results = [];
  for (const e of EXPERIMENTS)
    results.push(await runExperiment(e, { quick: true, sf: undefined, seed: 20260101, log: () => {} }));
}
console.log(`check:report: ${results.map((r) => `${r.experiment}${r.quick ? ' (quick)' : ''}`).join(', ')}`);
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
  const tab = await browser.newPage({ viewport: VIEWPORT });
  tab.on('request', (req) => {
    if (!req.url().startsWith('file:')) problems.push(`the page fetched ${req.url()}`);
  });
  tab.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  await tab.goto(pathToFileURL(page).href);

  // the page as a whole: no sideways scrolling, no table or figure past the window's right edge
  const page1 = await tab.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll('table, svg[data-chart], pre, h3, p')]
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.right > width + 0.5)
      .map(
        ({ el, box }) =>
          `${el.tagName.toLowerCase()} ${el.dataset.table ?? el.dataset.chart ?? ''} ends at ${Math.round(box.right)} px`,
      );
    return { width, scrollWidth: document.documentElement.scrollWidth, wide };
  });
  if (page1.scrollWidth > page1.width)
    problems.push(`the page scrolls sideways: ${page1.scrollWidth} px of content in ${page1.width} px`);
  for (const w of page1.wide) problems.push(`wider than the window (${page1.width} px): ${w}`);

  // every chart, from its laid-out boxes
  const drawn = await tab.$$eval('svg[data-chart]', (svgs) =>
    svgs.map((svg) => {
      const box = svg.getBoundingClientRect();
      const kind = svg.classList.contains('chart-bars') ? 'bars' : 'lines';
      const marks = [...svg.querySelectorAll(kind === 'bars' ? 'rect.bar' : 'circle.point')];
      const empty = marks
        .filter((m) => {
          const b = m.getBoundingClientRect();
          return Number(m.dataset.value) !== 0 && (b.width < 1 || b.height < 1);
        })
        .map((m) => `${m.dataset.series} · ${m.dataset.x} = ${m.dataset.value}`);
      const texts = [...svg.querySelectorAll('text')]
        .map((t) => ({ text: t.textContent ?? '', b: t.getBoundingClientRect() }))
        .filter((t) => t.b.width > 0 && t.b.height > 0);
      const overlaps = [];
      for (let i = 0; i < texts.length; i++)
        for (let j = i + 1; j < texts.length; j++) {
          const a = texts[i].b;
          const c = texts[j].b;
          const x = Math.min(a.right, c.right) - Math.max(a.left, c.left);
          const y = Math.min(a.bottom, c.bottom) - Math.max(a.top, c.top);
          if (x > 1 && y > 1) overlaps.push(`"${texts[i].text}" and "${texts[j].text}"`);
        }
      const outside = texts
        .filter((t) => t.b.left < box.left - 1 || t.b.right > box.right + 1)
        .map((t) => t.text);
      return {
        id: svg.dataset.chart,
        width: box.width,
        height: box.height,
        right: box.right,
        marks: marks.length,
        empty,
        overlaps,
        outside,
      };
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
    if (d.marks !== expectedPoints(c))
      problems.push(`chart ${c.id}: ${d.marks} marks, data has ${expectedPoints(c)}`);
    for (const e of d.empty)
      problems.push(`chart ${c.id}: a bar of a non-zero value has no width or height: ${e}`);
    for (const o of d.overlaps) problems.push(`chart ${c.id}: texts overlap: ${o}`);
    for (const o of d.outside) problems.push(`chart ${c.id}: text outside the chart: "${o}"`);
  });

  // the screenshots the READMEs show
  const sectionShot = async (experiment, file, what) => {
    const section = tab.locator(`section[data-experiment="${experiment}"]`);
    if ((await section.count()) === 0)
      return console.log(`check:report: no ${experiment} section; ${file} not written`);
    const target = what === 'charts' ? section.locator('figure') : section;
    const boxes = (await Promise.all((await target.all()).map((f) => f.boundingBox()))).filter(
      (b) => b !== null,
    );
    const scroll = await tab.evaluate(() => window.scrollY);
    const top = Math.min(...boxes.map((b) => b.y)) + scroll;
    const bottom = Math.max(...boxes.map((b) => b.y + b.height)) + scroll;
    await tab.screenshot({
      path: join(shots, file),
      fullPage: true,
      clip: {
        x: 0,
        y: Math.max(0, top - 10),
        width: VIEWPORT.width,
        height: Math.min(2400, Math.ceil(bottom - top) + 20),
      },
    });
    console.log(`check:report: screenshot ${join(shots, file)}`);
  };
  await sectionShot(process.env.REPORT_SECTION ?? 'index-build', 'report.png', 'section');
  await sectionShot(process.env.REPORT_CHARTS ?? 'bka-q3', 'report-charts.png', 'charts');
  console.log(
    `check:report: ${drawn.length} charts in ${results.length} results at ${VIEWPORT.width} px: every bar and point drawn, no overlapping text, nothing wider than the window`,
  );
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
if (problems.length > 0) {
  for (const p of problems) console.error(`  FAIL ${p}`);
  process.exit(1);
}

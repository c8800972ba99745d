import type { ExperimentResult, Table } from '../result.js';
import { formatCell } from '../text-table.js';
import { esc } from './escape.js';
import { chartSvg } from './svg.js';

const CSS = `body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1100px;padding:16px 24px;color:#222}
h1{font-size:24px}h2{font-size:20px;border-bottom:2px solid #1f77b4;padding-bottom:4px;margin-top:40px}h3{font-size:15px;margin:18px 0 6px}
table{border-collapse:collapse;margin:6px 0 4px;font-size:12.5px}th,td{border:1px solid #ccc;padding:3px 7px}th{background:#f2f5f9;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}.claim{background:#f8f8f4;border-left:4px solid #ff7f0e;padding:6px 12px;margin:8px 0}
.ok{color:#1a7f37;font-weight:600}.bad{color:#c0392b;font-weight:600}.note{color:#555;font-size:12.5px;margin:2px 0 10px}
.machine{color:#555;font-size:12.5px}figure{margin:10px 0 18px}figcaption{font-weight:600;margin-bottom:2px}pre{background:#f6f6f6;padding:8px;overflow:auto;font-size:12px}
nav a{margin-right:14px}`;

function htmlTable(t: Table): string {
  const head = t.columns.map((c) => `<th>${esc(c.label)}</th>`).join('');
  const body = t.rows
    .map(
      (r) =>
        `<tr>${t.columns
          .map((c) => {
            const v = r[c.key];
            return `<td${typeof v === 'number' ? ' class="num"' : ''}>${esc(formatCell(v, c))}</td>`;
          })
          .join('')}</tr>`,
    )
    .join('');
  return `<h3>${esc(t.title)}</h3><table data-table="${esc(t.id)}"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>${
    t.note !== undefined ? `<p class="note">${esc(t.note)}</p>` : ''
  }`;
}

function claims(r: ExperimentResult): string {
  if (r.claims.length === 0) return '';
  const rows = r.claims
    .map((c) => {
      const mark =
        c.holds === null
          ? '—'
          : c.holds
            ? '<span class="ok">holds</span>'
            : '<span class="bad">does not hold</span>';
      return `<tr><td>${esc(c.text)}</td><td>${esc(c.post)}</td><td>${esc(c.ours)}</td><td>${mark}</td></tr>`;
    })
    .join('');
  return `<h3>The post's figures beside ours</h3><table class="claims"><thead><tr><th>claim</th><th>the post</th><th>this run</th><th>check</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function machine(r: ExperimentResult): string {
  const m = r.machine;
  return `<p class="machine">${esc(m.cpuModel)} · ${m.cores} cores · Node ${esc(m.nodeVersion)} · load average ${m.loadAverage.join(' / ')}${
    m.loadAverageAfter ? ` → ${m.loadAverageAfter.join(' / ')}` : ''
  } · commit ${esc(m.gitCommit?.slice(0, 10) ?? 'unknown')}${m.gitDirty ? ' (modified)' : ''} · ${esc(r.startedAt)} · ${(r.durationMs / 1000).toFixed(1)} s${
    r.quick ? ' · <strong>quick run (tiny data)</strong>' : ''
  }</p>`;
}

function section(r: ExperimentResult, i: number): string {
  const charts = r.charts
    .map((c) => `<figure><figcaption>${esc(c.title)}</figcaption>${chartSvg(c)}</figure>`)
    .join('');
  return `<section id="exp-${i}" data-experiment="${esc(r.experiment)}"><h2>${esc(r.title)} <small>(${esc(r.experiment)})</small></h2>
<div class="claim"><strong>${esc(r.post.title)}</strong> <span class="note">(${esc(r.post.source)})</span><br>${esc(r.post.claim)}</div>
${machine(r)}${claims(r)}${r.tables.map(htmlTable).join('')}${charts}
<details><summary>Configuration</summary><pre>${esc(JSON.stringify(r.config, null, 2))}</pre></details></section>`;
}

/**
 * The report: one self-contained HTML page (inline CSS and SVG, no scripts, nothing fetched)
 * with a section per result, in the order given.
 */
export function renderReport(
  results: readonly ExperimentResult[],
  generatedAt: string = new Date().toISOString(),
): string {
  const nav = results.map((r, i) => `<a href="#exp-${i}">${esc(r.experiment)}</a>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>enginekit bench report</title><style>${CSS}</style></head>
<body><h1>enginekit bench report</h1>
<p class="note">${results.length} result${results.length === 1 ? '' : 's'}, generated ${esc(generatedAt)}. Times are medians of several runs with their min–max; ratios come from the same run. Modeled I/O and counters are deterministic.</p>
<nav>${nav}</nav>
${results.map(section).join('\n')}
</body></html>
`;
}

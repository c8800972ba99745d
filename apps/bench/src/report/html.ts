import { columnParts, keyColumns } from '../column-parts.js';
import { citation } from '../posts.js';
import type { ExperimentResult, Table } from '../result.js';
import { formatCell } from '../text-table.js';
import { esc } from './escape.js';
import { chartSvg } from './svg.js';

const CSS = `body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1100px;padding:16px 24px;color:#222}
h1{font-size:24px}h2{font-size:20px;border-bottom:2px solid #1f77b4;padding-bottom:4px;margin-top:40px}h3{font-size:15px;margin:18px 0 6px}
table{border-collapse:collapse;margin:6px 0 4px;font-size:12.5px;max-width:100%}th,td{border:1px solid #ccc;padding:3px 7px;overflow-wrap:break-word}th{background:#f2f5f9;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}.claim{background:#f8f8f4;border-left:4px solid #ff7f0e;padding:6px 12px;margin:8px 0}
.ok{color:#1a7f37;font-weight:600}.bad{color:#c0392b;font-weight:600}.note{color:#555;font-size:12.5px;margin:2px 0 10px}
.machine{color:#555;font-size:12.5px}figure{margin:10px 0 18px}figcaption{font-weight:600;margin-bottom:2px}pre{background:#f6f6f6;padding:8px;overflow:auto;font-size:12px;white-space:pre-wrap}
svg{max-width:100%;height:auto}.cite{margin:4px 0 0;font-size:13px}nav a{margin-right:14px}`;

/** Pixels a column needs at the table's font: its longest unbreakable word, or its number. */
function columnPx(t: Table, i: number): number {
  const c = t.columns[i];
  if (c === undefined) return 0;
  const words = (s: string): number => Math.max(0, ...s.split(/\s+/).map((w) => w.length));
  let chars = words(c.label);
  for (const r of t.rows) {
    const v = r[c.key];
    const text = formatCell(v, c);
    // numbers do not wrap; text wraps at spaces, so a long cell needs only a readable share
    chars = Math.max(
      chars,
      typeof v === 'number' ? text.length : Math.min(text.length, Math.max(words(text), 24)),
    );
  }
  return chars * 7.2 + 16;
}

/** The page's content width, px: `max-width` less the padding. */
const CONTENT_PX = 1100 - 48;

function htmlTable(t: Table): string {
  const texts = t.rows.map((r) => t.columns.map((c) => formatCell(r[c.key], c)));
  const widths = t.columns.map((_, i) => columnPx(t, i));
  let keys = keyColumns(texts, t.columns.length);
  while (keys > 1 && widths.slice(0, keys).reduce((a, w) => a + w, 0) > CONTENT_PX / 2) keys--;
  const parts = columnParts(widths, CONTENT_PX, 0, keys);
  const one = (which: readonly number[], n: number): string => {
    const head = which.map((i) => `<th>${esc(t.columns[i]?.label ?? '')}</th>`).join('');
    const body = t.rows
      .map(
        (r) =>
          `<tr>${which
            .map((i) => {
              const c = t.columns[i];
              if (c === undefined) return '';
              const v = r[c.key];
              return `<td${typeof v === 'number' ? ' class="num"' : ''}>${esc(formatCell(v, c))}</td>`;
            })
            .join('')}</tr>`,
      )
      .join('');
    const title = parts.length === 1 ? t.title : `${t.title} (${n + 1} of ${parts.length})`;
    const id = parts.length === 1 ? t.id : `${t.id}.${n + 1}`;
    return `<h3>${esc(title)}</h3><table data-table="${esc(id)}"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
  };
  return `${parts.map(one).join('')}${t.note !== undefined ? `<p class="note">${esc(t.note)}</p>` : ''}`;
}

function claims(r: ExperimentResult): string {
  if (r.claims.length === 0) return '';
  const rows = r.claims
    .map((c) => {
      const mark =
        c.holds === null
          ? 'measured'
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
    r.quick ? ' · <strong>quick run (tiny data, each configuration timed once)</strong>' : ''
  }</p>`;
}

function sources(r: ExperimentResult): string {
  const list = r.post.sources ?? [];
  if (list.length === 0) return '<p class="cite">Not from a post: the project’s own comparison.</p>';
  return list
    .map((s) => {
      const text = citation(s);
      const at = text.lastIndexOf(s.url);
      return `<p class="cite">${esc(text.slice(0, at))}<a href="${esc(s.url)}">${esc(s.url)}</a></p>`;
    })
    .join('');
}

function section(r: ExperimentResult, i: number): string {
  const charts = r.charts
    .map((c) => `<figure><figcaption>${esc(c.title)}</figcaption>${chartSvg(c)}</figure>`)
    .join('');
  return `<section id="exp-${i}" data-experiment="${esc(r.experiment)}"><h2>${esc(r.title)} <small>(${esc(r.experiment)})</small></h2>
<div class="claim"><strong>${esc(r.post.title)}</strong>${sources(r)}<p class="cite">${esc(r.post.claim)}</p></div>
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
  const quick = results.filter((r) => r.quick).length;
  const kind =
    quick === results.length
      ? 'quick runs'
      : quick === 0
        ? 'full runs'
        : `${quick} quick and ${results.length - quick} full runs`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>enginekit bench report</title><style>${CSS}</style></head>
<body><h1>enginekit bench report</h1>
<p class="note">${results.length} result${results.length === 1 ? '' : 's'} (${kind}), generated ${esc(generatedAt)}. Each table's title says how many runs its times come from (a quick run times each configuration once); ratios come from the same run. Modeled I/O and counters are deterministic. Each chart has one unit and one scale: figures on different scales (the post's, ours, MariaDB's) are separate charts.</p>
<nav>${nav}</nav>
${results.map(section).join('\n')}
</body></html>
`;
}

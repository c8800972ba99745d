import type { Chart, ChartPoint } from '../result.js';
import { wrapText } from '../text-wrap.js';
import { esc } from './escape.js';

/** Colours of the series, in order (readable on white and for common colour-vision deficiencies). */
const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f'];

/** Width of every chart, px. */
const W = 820;
/** Bar charts: the category labels' column (wrapped, never cut), then the bars. */
const LABEL_W = 250;
const LABEL_CHARS = 38;
const LINE_H = 13;
/** Line charts: margins around the plot. */
const M = { left: 120, right: 20, top: 28, bottom: 64 };
const LINES_H = 320;
/** Bars that stand for a value other than 0 are drawn at least this long, px. */
const MIN_BAR = 2;

function colour(i: number): string {
  return PALETTE[i % PALETTE.length] as string;
}

/** A "nice" upper bound and tick step for [0, max]. */
function niceScale(max: number): { top: number; step: number } {
  if (!(max > 0)) return { top: 1, step: 0.25 };
  const raw = max / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= raw) ?? 10 * mag;
  return { top: Math.ceil(max / step) * step, step };
}

function fmt(v: number): string {
  if (Math.abs(v) >= 1e6) return `${(v / 1e6).toFixed(1)}M`;
  if (Math.abs(v) >= 1e4) return `${(v / 1e3).toFixed(0)}k`;
  return Number.isInteger(v) ? String(v) : v.toFixed(Math.abs(v) < 1 ? 2 : 1);
}

function peak(points: readonly ChartPoint[]): number {
  return points.reduce((m, p) => Math.max(m, p.y, p.high ?? p.y), 0);
}

/** Legend entries flowed left to right from `x0`, wrapping at the chart's width; its height. */
function legend(chart: Chart, x0: number): { svg: string; height: number } {
  const out: string[] = [];
  let x = x0;
  let row = 0;
  chart.series.forEach((s, i) => {
    const width = 18 + s.name.length * 7.2;
    if (x > x0 && x + width > W - 8) {
      row++;
      x = x0;
    }
    const y = 6 + row * 18;
    out.push(
      `<g class="legend"><rect x="${x}" y="${y}" width="12" height="12" fill="${colour(i)}"/><text x="${x + 16}" y="${y + 10}" font-size="12">${esc(s.name)}</text></g>`,
    );
    x += width + 16;
  });
  return { svg: out.join(''), height: 6 + (row + 1) * 18 + 6 };
}

/** Multi-line text: one `<tspan>` per line, the block centred on `y`. */
function lines(texts: readonly string[], x: number, y: number, anchor: string, cls: string): string {
  const first = y - ((texts.length - 1) * LINE_H) / 2 + 4;
  const spans = texts.map(
    (t, i) => `<tspan x="${x}" y="${(first + i * LINE_H).toFixed(1)}">${esc(t)}</tspan>`,
  );
  return `<text class="${cls}" font-size="11" text-anchor="${anchor}">${spans.join('')}</text>`;
}

/**
 * Bars, horizontal: one row per category with its full label (wrapped to the label column, never
 * cut, so two categories never share a label), one bar per series in it, a value axis below.
 */
function bars(chart: Chart): { svg: string; height: number; count: number } {
  const cats: string[] = [];
  for (const s of chart.series)
    for (const p of s.points) if (!cats.includes(String(p.x))) cats.push(String(p.x));
  const key = legend(chart, LABEL_W + 10);
  const { top, step } = niceScale(Math.max(...chart.series.map((s) => peak(s.points))));
  const left = LABEL_W + 10;
  const plotW = W - left - 24;
  const xOf = (v: number): number => left + (Math.max(0, v) / top) * plotW;
  const bar = chart.series.length > 3 ? 10 : 14;
  const labels = cats.map((c) => wrapText(c, LABEL_CHARS));
  const rowH = labels.map((l) => Math.max(chart.series.length * (bar + 2), l.length * LINE_H) + 12);
  const plotTop = key.height + 18;
  const plotH = rowH.reduce((a, h) => a + h, 0);
  const out: string[] = [
    `<text class="axis-title" x="0" y="${plotTop - 6}" font-size="11" font-weight="600">${esc(chart.xLabel)}</text>`,
  ];
  for (let v = 0; v <= top + step / 2; v += step) {
    const x = xOf(v);
    out.push(
      `<line class="grid" x1="${x}" x2="${x}" y1="${plotTop}" y2="${plotTop + plotH}" stroke="#ddd"/>`,
    );
    out.push(
      `<text class="tick" x="${x}" y="${plotTop + plotH + 14}" font-size="11" text-anchor="middle">${esc(fmt(v))}</text>`,
    );
  }
  out.push(
    `<text class="axis-title" x="${left + plotW / 2}" y="${plotTop + plotH + 34}" font-size="12" text-anchor="middle">${esc(chart.yLabel)}</text>`,
  );
  let count = 0;
  let y = plotTop;
  cats.forEach((c, ci) => {
    const h = rowH[ci] as number;
    out.push(lines(labels[ci] as string[], LABEL_W, y + h / 2, 'end', 'category'));
    const barsH = chart.series.length * (bar + 2) - 2;
    let by = y + (h - barsH) / 2;
    chart.series.forEach((s, si) => {
      const p = s.points.find((q) => String(q.x) === c);
      if (p !== undefined) {
        const length = p.y > 0 ? Math.max(MIN_BAR, xOf(p.y) - left) : 0;
        out.push(
          `<rect class="bar" data-series="${esc(s.name)}" data-x="${esc(p.x)}" data-value="${p.y}" x="${left}" y="${by.toFixed(1)}" width="${length.toFixed(1)}" height="${bar}" fill="${colour(si)}"><title>${esc(`${s.name} · ${p.x}: ${p.y}${p.low !== undefined ? ` (${p.low}–${p.high})` : ''}`)}</title></rect>`,
        );
        if (p.low !== undefined && p.high !== undefined) {
          const m = by + bar / 2;
          const [x1, x2] = [xOf(p.low), xOf(p.high)];
          out.push(
            `<g class="whisker" stroke="#222"><line x1="${x1}" x2="${x2}" y1="${m}" y2="${m}"/><line x1="${x1}" x2="${x1}" y1="${m - 4}" y2="${m + 4}"/><line x1="${x2}" x2="${x2}" y1="${m - 4}" y2="${m + 4}"/></g>`,
          );
        }
        count++;
      }
      by += bar + 2;
    });
    y += h;
  });
  out.push(`<line x1="${left}" x2="${left}" y1="${plotTop}" y2="${plotTop + plotH}" stroke="#333"/>`);
  return { svg: key.svg + out.join(''), height: plotTop + plotH + 44, count };
}

/** Curves over a numeric x (linear or log), value axis on the left. */
function curves(chart: Chart): { svg: string; height: number; count: number } {
  const key = legend(chart, M.left);
  const xs = chart.series.flatMap((s) => s.points.map((p) => Number(p.x)));
  const log = chart.xScale === 'log' && xs.every((x) => x > 0);
  const pos = (v: number): number => (log ? Math.log(v) : v);
  const xMin = Math.min(...xs.map(pos));
  const xMax = Math.max(...xs.map(pos));
  const { top, step } = niceScale(Math.max(...chart.series.map((s) => peak(s.points))));
  const plotTop = key.height + 10;
  const plotW = W - M.left - M.right;
  const plotH = LINES_H - M.top - M.bottom;
  const xOf = (v: number): number =>
    M.left + (xMax === xMin ? plotW / 2 : ((pos(v) - xMin) / (xMax - xMin)) * plotW);
  const yOf = (v: number): number => plotTop + plotH - (Math.max(0, v) / top) * plotH;
  const out: string[] = [];
  for (let v = 0; v <= top + step / 2; v += step) {
    const y = yOf(v);
    out.push(`<line class="grid" x1="${M.left}" x2="${W - M.right}" y1="${y}" y2="${y}" stroke="#ddd"/>`);
    out.push(
      `<text class="tick" x="${M.left - 6}" y="${y + 4}" text-anchor="end" font-size="11">${esc(fmt(v))}</text>`,
    );
  }
  const mid = plotTop + plotH / 2;
  out.push(
    `<text class="axis-title" x="60" y="${mid}" transform="rotate(-90 60 ${mid})" text-anchor="middle" font-size="12">${esc(chart.yLabel)}</text>`,
  );
  let count = 0;
  chart.series.forEach((s, si) => {
    const pts = s.points.map((p) => `${xOf(Number(p.x)).toFixed(1)},${yOf(p.y).toFixed(1)}`).join(' ');
    out.push(
      `<polyline class="curve" data-series="${esc(s.name)}" points="${pts}" fill="none" stroke="${colour(si)}" stroke-width="2"/>`,
    );
    for (const p of s.points) {
      const x = xOf(Number(p.x));
      if (p.low !== undefined && p.high !== undefined) {
        const [y1, y2] = [yOf(p.low), yOf(p.high)];
        out.push(
          `<g class="whisker" stroke="#222"><line x1="${x}" x2="${x}" y1="${y1}" y2="${y2}"/><line x1="${x - 4}" x2="${x + 4}" y1="${y1}" y2="${y1}"/><line x1="${x - 4}" x2="${x + 4}" y1="${y2}" y2="${y2}"/></g>`,
        );
      }
      out.push(
        `<circle class="point" data-series="${esc(s.name)}" data-x="${esc(p.x)}" data-value="${p.y}" cx="${x.toFixed(1)}" cy="${yOf(p.y).toFixed(1)}" r="3.5" fill="${colour(si)}"><title>${esc(`${s.name} · ${p.x}: ${p.y}`)}</title></circle>`,
      );
      count++;
    }
  });
  const ticks = [...new Set(xs)].sort((a, b) => a - b);
  // no two tick labels closer than 44 px (each is a few digits wide)
  const shown: number[] = [];
  for (const t of ticks) if (shown.every((u) => Math.abs(xOf(u) - xOf(t)) >= 44)) shown.push(t);
  for (const t of shown) {
    out.push(
      `<text class="tick" x="${xOf(t)}" y="${plotTop + plotH + 16}" font-size="11" text-anchor="middle">${esc(fmt(t))}</text>`,
    );
  }
  out.push(
    `<text class="axis-title" x="${M.left + plotW / 2}" y="${plotTop + plotH + 40}" font-size="12" text-anchor="middle">${esc(chart.xLabel)}</text>`,
  );
  out.push(
    `<line x1="${M.left}" x2="${W - M.right}" y1="${plotTop + plotH}" y2="${plotTop + plotH}" stroke="#333"/>`,
  );
  return { svg: key.svg + out.join(''), height: plotTop + plotH + M.bottom - 10, count };
}

/**
 * One chart as inline SVG. The `<svg>` carries `data-chart` (the chart id) and `data-points`
 * (how many bars or points it drew), so a checker can compare them with the result's data.
 */
export function chartSvg(chart: Chart): string {
  const { svg, height, count } = chart.kind === 'bars' ? bars(chart) : curves(chart);
  const h = Math.ceil(height);
  return `<svg xmlns="http://www.w3.org/2000/svg" class="chart chart-${chart.kind}" data-chart="${esc(chart.id)}" data-points="${count}" viewBox="0 0 ${W} ${h}" width="${W}" height="${h}" role="img" aria-label="${esc(chart.title)}">${svg}</svg>`;
}

/** Number of bars or points {@link chartSvg} draws for a chart. */
export function expectedPoints(chart: Chart): number {
  return chart.series.reduce((n, s) => n + s.points.length, 0);
}

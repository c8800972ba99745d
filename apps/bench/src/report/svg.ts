import type { Chart, ChartPoint } from '../result.js';
import { esc } from './escape.js';

/** Colours of the series, in order (readable on white and for common colour-vision deficiencies). */
const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f'];

const W = 820;
const H = 360;
const M = { left: 120, right: 16, top: 28, bottom: 110 };

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

function yAxis(top: number, step: number, label: string): string {
  const plotH = H - M.top - M.bottom;
  const out: string[] = [];
  for (let v = 0; v <= top + step / 2; v += step) {
    const y = M.top + plotH - (v / top) * plotH;
    out.push(`<line class="grid" x1="${M.left}" x2="${W - M.right}" y1="${y}" y2="${y}" stroke="#ddd"/>`);
    out.push(`<text x="${M.left - 6}" y="${y + 4}" text-anchor="end" font-size="11">${esc(fmt(v))}</text>`);
  }
  out.push(
    `<text x="60" y="${M.top + plotH / 2}" transform="rotate(-90 60 ${M.top + plotH / 2})" text-anchor="middle" font-size="12">${esc(label)}</text>`,
  );
  return out.join('');
}

/** Legend entries flowed left to right, wrapping at the chart's width; returns the extra height used. */
function legend(chart: Chart): { svg: string; extra: number } {
  const out: string[] = [];
  let x = M.left;
  let row = 0;
  chart.series.forEach((s, i) => {
    const width = 24 + s.name.length * 6.6;
    if (x > M.left && x + width > W - M.right) {
      row++;
      x = M.left;
    }
    const y = 6 + row * 18;
    out.push(
      `<g class="legend"><rect x="${x}" y="${y}" width="12" height="12" fill="${colour(i)}"/><text x="${x + 16}" y="${y + 10}" font-size="12">${esc(s.name)}</text></g>`,
    );
    x += width + 14;
  });
  return { svg: out.join(''), extra: row * 18 };
}

function whisker(x: number, p: ChartPoint, yOf: (v: number) => number): string {
  if (p.low === undefined || p.high === undefined) return '';
  const y1 = yOf(p.low);
  const y2 = yOf(p.high);
  return `<g class="whisker" stroke="#222"><line x1="${x}" x2="${x}" y1="${y1}" y2="${y2}"/><line x1="${x - 4}" x2="${x + 4}" y1="${y1}" y2="${y1}"/><line x1="${x - 4}" x2="${x + 4}" y1="${y2}" y2="${y2}"/></g>`;
}

function bars(chart: Chart): { body: string; count: number } {
  const cats: string[] = [];
  for (const s of chart.series)
    for (const p of s.points) if (!cats.includes(String(p.x))) cats.push(String(p.x));
  const { top, step } = niceScale(Math.max(...chart.series.map((s) => peak(s.points))));
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const yOf = (v: number): number => M.top + plotH - (Math.max(0, v) / top) * plotH;
  const band = plotW / Math.max(1, cats.length);
  const barW = Math.max(2, (band * 0.8) / chart.series.length);
  const out: string[] = [yAxis(top, step, chart.yLabel)];
  let count = 0;
  chart.series.forEach((s, si) => {
    for (const p of s.points) {
      const ci = cats.indexOf(String(p.x));
      const x = M.left + ci * band + band * 0.1 + si * barW;
      const y = yOf(p.y);
      out.push(
        `<rect class="bar" data-series="${esc(s.name)}" data-x="${esc(p.x)}" data-value="${p.y}" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${barW.toFixed(1)}" height="${(M.top + plotH - y).toFixed(1)}" fill="${colour(si)}"><title>${esc(`${s.name} · ${p.x}: ${p.y}${p.low !== undefined ? ` (${p.low}–${p.high})` : ''}`)}</title></rect>`,
      );
      out.push(whisker(x + barW / 2, p, yOf));
      count++;
    }
  });
  cats.forEach((c, ci) => {
    const x = M.left + ci * band + band / 2;
    const y = M.top + plotH + 12;
    const label = c.length > 30 ? `${c.slice(0, 29)}…` : c;
    out.push(
      `<text x="${x}" y="${y}" font-size="11" text-anchor="end" transform="rotate(-30 ${x} ${y})">${esc(label)}</text>`,
    );
  });
  out.push(
    `<line x1="${M.left}" x2="${W - M.right}" y1="${M.top + plotH}" y2="${M.top + plotH}" stroke="#333"/>`,
  );
  return { body: out.join(''), count };
}

function lines(chart: Chart): { body: string; count: number } {
  const xs = chart.series.flatMap((s) => s.points.map((p) => Number(p.x)));
  const log = chart.xScale === 'log' && xs.every((x) => x > 0);
  const pos = (v: number): number => (log ? Math.log(v) : v);
  const xMin = Math.min(...xs.map(pos));
  const xMax = Math.max(...xs.map(pos));
  const { top, step } = niceScale(Math.max(...chart.series.map((s) => peak(s.points))));
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const xOf = (v: number): number =>
    M.left + (xMax === xMin ? plotW / 2 : ((pos(v) - xMin) / (xMax - xMin)) * plotW);
  const yOf = (v: number): number => M.top + plotH - (Math.max(0, v) / top) * plotH;
  const out: string[] = [yAxis(top, step, chart.yLabel)];
  let count = 0;
  chart.series.forEach((s, si) => {
    const pts = s.points.map((p) => `${xOf(Number(p.x)).toFixed(1)},${yOf(p.y).toFixed(1)}`).join(' ');
    out.push(
      `<polyline class="curve" data-series="${esc(s.name)}" points="${pts}" fill="none" stroke="${colour(si)}" stroke-width="2"/>`,
    );
    for (const p of s.points) {
      const x = xOf(Number(p.x));
      out.push(whisker(x, p, yOf));
      out.push(
        `<circle class="point" data-series="${esc(s.name)}" data-x="${esc(p.x)}" data-value="${p.y}" cx="${x.toFixed(1)}" cy="${yOf(p.y).toFixed(1)}" r="3.5" fill="${colour(si)}"><title>${esc(`${s.name} · ${p.x}: ${p.y}`)}</title></circle>`,
      );
      count++;
    }
  });
  const ticks = [...new Set(xs)].sort((a, b) => a - b);
  const shown = ticks.length > 12 ? ticks.filter((_, i) => i % Math.ceil(ticks.length / 12) === 0) : ticks;
  for (const t of shown) {
    out.push(
      `<text x="${xOf(t)}" y="${M.top + plotH + 16}" font-size="11" text-anchor="middle">${esc(fmt(t))}</text>`,
    );
  }
  out.push(
    `<text x="${M.left + plotW / 2}" y="${H - 40}" font-size="12" text-anchor="middle">${esc(chart.xLabel)}</text>`,
  );
  out.push(
    `<line x1="${M.left}" x2="${W - M.right}" y1="${M.top + plotH}" y2="${M.top + plotH}" stroke="#333"/>`,
  );
  return { body: out.join(''), count };
}

/**
 * One chart as inline SVG. The `<svg>` carries `data-chart` (the chart id) and `data-points`
 * (how many bars or points it drew), so a checker can compare them with the result's data.
 */
export function chartSvg(chart: Chart): string {
  const { body, count } = chart.kind === 'bars' ? bars(chart) : lines(chart);
  const key = legend(chart);
  const h = H + key.extra;
  return `<svg xmlns="http://www.w3.org/2000/svg" class="chart chart-${chart.kind}" data-chart="${esc(chart.id)}" data-points="${count}" viewBox="0 0 ${W} ${h}" width="${W}" height="${h}" role="img" aria-label="${esc(chart.title)}">${key.svg}<g transform="translate(0 ${key.extra})">${body}</g></svg>`;
}

/** Number of bars or points {@link chartSvg} draws for a chart. */
export function expectedPoints(chart: Chart): number {
  return chart.series.reduce((n, s) => n + s.points.length, 0);
}

import type { Cell, Chart, Column, Table } from '../result.js';
import type { SqlConfigRuns } from './sql-configs.js';

/** A column key from a configuration's label (`mrr 256K` → `mrr_256K`). */
export const configKey = (label: string): string => label.replace(/[^a-z0-9]/gi, '_');

export interface CounterTableInput {
  readonly id: string;
  readonly title: string;
  readonly note: string;
  /** The post's columns: their labels, and per counter the post's figures (NaN: not reported). */
  readonly postLabels: readonly string[];
  readonly post: Readonly<Record<string, readonly number[]>>;
  /** Counter names, in order; `labels` renames a row where the name is ours, not a server's. */
  readonly counters: readonly string[];
  readonly labels?: Readonly<Record<string, string>>;
  readonly configs: readonly { readonly label: string }[];
  /** Our counters per configuration, in order. */
  readonly ours: readonly (Readonly<Record<string, number>> | undefined)[];
  /** What our columns are called (default `enginekit`). */
  readonly oursLabel?: string;
  readonly maria: SqlConfigRuns | undefined;
}

/**
 * The posts' counter table: one row per counter, the post's columns, then per configuration
 * ours (`ek_<config>`) and, when MariaDB ran, MariaDB's (`m_<config>`) beside it. MariaDB's are
 * its cold runs' counters (`SqlConfigRuns.cold`).
 */
export function counterTable(t: CounterTableInput): Table {
  const columns: Column[] = [
    { key: 'counter', label: 'counter' },
    ...t.postLabels.map((label, i) => ({ key: `post${i}`, label: `post: ${label}` })),
  ];
  for (const c of t.configs) {
    columns.push({ key: `ek_${configKey(c.label)}`, label: `${t.oursLabel ?? 'enginekit'} ${c.label}` });
    if (t.maria) columns.push({ key: `m_${configKey(c.label)}`, label: `MariaDB ${c.label}` });
  }
  const rows = t.counters.map((name) => {
    const row: Record<string, Cell> = { counter: t.labels?.[name] ?? name };
    t.postLabels.forEach((_, i) => {
      const v = t.post[name]?.[i];
      row[`post${i}`] = v !== undefined && Number.isFinite(v) ? v : null;
    });
    t.configs.forEach((c, i) => {
      row[`ek_${configKey(c.label)}`] = t.ours[i]?.[name] ?? null;
      if (t.maria) row[`m_${configKey(c.label)}`] = t.maria.cold[i]?.counters[name] ?? null;
    });
    return row;
  });
  return { id: t.id, title: t.title, columns, rows, note: t.note };
}

export interface BarSeries<R> {
  readonly name: string;
  readonly y: (row: R) => number | null | undefined;
  /** Leave the series out (a peer that did not run). Default true. */
  readonly when?: boolean;
}

/**
 * Bars per configuration, one series per system that ran; a configuration a system has no figure
 * for gets no bar (not a bar of 0). Every series of one chart must share its unit and scale.
 */
export function configBars<R extends { readonly config: string }>(
  id: string,
  title: string,
  yLabel: string,
  rows: readonly R[],
  series: readonly BarSeries<R>[],
): Chart {
  return {
    id,
    kind: 'bars',
    title,
    xLabel: 'configuration',
    yLabel,
    series: series
      .filter((s) => s.when !== false)
      .map((s) => ({
        name: s.name,
        points: rows.flatMap((r) => {
          const y = s.y(r);
          return y === null || y === undefined ? [] : [{ x: r.config, y }];
        }),
      })),
  };
}

/** One configuration's IO-bound figures, as the IO experiments' time tables hold them. */
export interface IoRow {
  readonly config: string;
  readonly ekModeledS: number | null;
  readonly ekDiskS: number | null;
  readonly ekPages: number | null;
  readonly mariaDiskS: number | null;
  readonly mariaPages: number | null;
}

/**
 * The IO experiments' three charts of one query: modeled hdd seconds (the engine's SQL path
 * beside the package path, `pkgModeledS` in configuration order), wall seconds on the disk
 * (beside MariaDB), and pages read (beside MariaDB). Each chart keeps one unit and one scale.
 */
export function ioCharts(
  query: string,
  rows: readonly IoRow[],
  pkgModeledS: readonly number[],
  withMaria: boolean,
): Chart[] {
  return [
    configBars(
      'io-time',
      `IO-bound ${query}: modeled seconds on the hdd model (seeded, machine-independent)`,
      'modeled hdd s',
      rows.map((r, i) => ({ ...r, pkgS: pkgModeledS[i] ?? null })),
      [
        { name: 'enginekit SQL', y: (r) => r.ekModeledS },
        { name: 'package path (mechanism)', y: (r) => r.pkgS },
      ],
    ),
    configBars(
      'io-time-disk',
      `IO-bound ${query}: wall seconds of the cold query on this machine's disk (OS cache dropped)`,
      'wall s',
      rows,
      [
        { name: 'enginekit SQL', y: (r) => r.ekDiskS },
        { name: 'MariaDB', y: (r) => r.mariaDiskS, when: withMaria },
      ],
    ),
    configBars('pages-read', `IO-bound ${query} through SQL: Innodb_pages_read`, 'pages read', rows, [
      { name: 'enginekit', y: (r) => r.ekPages },
      { name: 'MariaDB', y: (r) => r.mariaPages, when: withMaria },
    ]),
  ];
}

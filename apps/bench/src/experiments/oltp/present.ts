import type { ExperimentOutput } from '../../experiment.js';
import { round } from '../../measure.js';
import { MARIADB_ABSENT } from '../../peers/mariadb.js';
import type { Chart, Claim, Column, Table } from '../../result.js';
import type { OltpMeasurement, Point } from './measure.js';
import { FLUSH, POOL, TESTS, WRITES } from './setup.js';

/** The goal for writers beside MariaDB: this share of its TPS from 4 client threads up. */
const GOAL = 0.7;

function skipped(reason: string): ExperimentOutput {
  return {
    config: { skipped: reason },
    claims: [{ text: 'sysbench against enginekit serve and MariaDB', post: '—', ours: reason, holds: null }],
    tables: [],
    charts: [],
    data: { skipped: reason },
  };
}

/** The claims, tables and charts of `oltp`, computed from its measurement alone. */
export function present(m: OltpMeasurement): ExperimentOutput {
  if ('skipped' in m) return skipped(m.skipped);
  const { points, servers, settings: config } = m;
  const find = (test: string, n: number, id: string): Point | undefined =>
    points.find((p) => p.test === test && p.threads === n && p.server === id);
  const hasMaria = servers.some((s) => s.id === 'maria');
  const engines = servers.filter((s) => s.id !== 'maria');
  const rows: Record<string, string | number | null>[] = [];
  for (const test of TESTS) {
    for (const n of config.threads) {
      if (!points.some((p) => p.test === test && p.threads === n)) continue;
      const row: Record<string, string | number | null> = { test, threads: n };
      const maria = find(test, n, 'maria');
      for (const s of servers) {
        const p = find(test, n, s.id);
        row[`${s.id}Tps`] = p ? round(p.tps, 1) : null;
        row[`${s.id}P95`] = p ? p.p95Ms : null;
        row[`${s.id}Errors`] = p ? p.errors : null;
        row[`${s.id}Waits`] = p ? p.lockWaitsPerS : null;
        row[`${s.id}Deadlocks`] = p ? p.deadlocksPerS : null;
        if (s.id !== 'maria' && hasMaria)
          row[`${s.id}Ratio`] = p && maria && maria.tps > 0 ? round(p.tps / maria.tps, 2) : null;
      }
      row.load = find(test, n, servers[0]?.id ?? '')?.load ?? null;
      rows.push(row);
    }
  }
  const columns: Column[] = [
    { key: 'test', label: 'test' },
    { key: 'threads', label: 'threads' },
  ];
  for (const s of servers) {
    columns.push(
      { key: `${s.id}Tps`, label: `${s.label} TPS`, digits: 1 },
      { key: `${s.id}P95`, label: `${s.label} p95 ms`, digits: 2 },
      { key: `${s.id}Errors`, label: `${s.label} restarts` },
      { key: `${s.id}Waits`, label: `${s.label} lock waits/s`, digits: 2 },
      { key: `${s.id}Deadlocks`, label: `${s.label} deadlocks/s`, digits: 2 },
    );
  }
  if (hasMaria)
    for (const s of engines)
      columns.push({ key: `${s.id}Ratio`, label: `${s.label} / MariaDB TPS`, digits: 2 });
  columns.push({ key: 'load', label: 'load average (first server)' });
  const tables: Table[] = [
    {
      id: 'points',
      title: `${config.version}, ${config.shape.tables} × ${config.shape.rows} rows, ${config.seconds} s per point: TPS, p95, restarts (ignored 1213/1205), lock waits and deadlocks per second`,
      columns,
      rows,
      note:
        `enginekit serve runs sessions on worker threads (one per core, the default)${engines.length > 1 ? ' and, in the second columns, on the main thread (--threads 0)' : ''}; ` +
        `both servers have innodb_buffer_pool_size ${POOL >> 20} MiB and innodb_flush_log_at_trx_commit ${FLUSH}. ` +
        'point_select and read_only run in autocommit (--skip_trx=on); write_only and read_write in transactions ' +
        "(--skip_trx=off), restarting after 1213/1205. Lock waits and deadlocks are the servers' Innodb_row_lock_waits " +
        'and Innodb_deadlocks over the point. ' +
        (hasMaria ? `Peer: ${config.mariadb}.` : `${MARIADB_ABSENT}.`) +
        ' The servers share the machine with sysbench: the figures are the whole box.',
    },
  ];
  const charts: Chart[] = TESTS.map((test) => ({
    id: `tps-${test}`,
    kind: 'lines',
    title: `${test}: transactions per second vs client threads`,
    xLabel: 'threads',
    yLabel: 'TPS',
    xScale: 'log',
    series: servers.map((s) => ({
      name: s.label,
      points: config.threads.flatMap((n) => {
        const p = find(test, n, s.id);
        return p ? [{ x: n, y: round(p.tps, 1) }] : [];
      }),
    })),
  }));
  const ratios = rows.filter((r) => r.ekRatio !== null && r.ekRatio !== undefined);
  const writers = ratios.filter((r) => WRITES.has(String(r.test)) && Number(r.threads) >= 4);
  const wide = find('oltp_point_select', Math.max(...config.threads), 'ek');
  const claims: Claim[] = [
    {
      text: 'enginekit serve beside MariaDB under sysbench, TPS ratio per test and thread count',
      post: '—',
      ours: hasMaria
        ? ratios.map((r) => `${r.test} ${r.threads}: ×${r.ekRatio}`).join('; ')
        : `enginekit alone (${MARIADB_ABSENT})`,
      holds: null,
    },
    {
      text: `writers (oltp_write_only, oltp_read_write) at ≥ ${GOAL}× MariaDB's TPS from 4 client threads up`,
      post: `≥ ${GOAL}×`,
      ours:
        writers.length > 0
          ? writers.map((r) => `${r.test} ${r.threads}: ×${r.ekRatio}`).join('; ')
          : 'no MariaDB',
      holds: writers.length > 0 ? writers.every((r) => Number(r.ekRatio) >= GOAL) : null,
    },
    {
      text: `oltp_point_select at ${wide?.threads ?? '—'} client threads finishes with no error`,
      post: 'no error',
      ours: wide === undefined ? 'not run' : `${round(wide.tps, 1)} TPS, ${wide.errors} errors`,
      holds: wide === undefined ? null : wide.errors === 0,
    },
  ];
  return {
    config: { ...config, tests: TESTS, innodb_buffer_pool_size: POOL, innodb_flush_log_at_trx_commit: FLUSH },
    claims,
    tables,
    charts,
    data: points,
  };
}

import { citation } from './posts.js';
import type { Claim, ExperimentResult } from './result.js';
import { formatTable } from './text-table.js';
import { wrapText } from './text-wrap.js';

/** A claim's verdict in one word: the check of a deterministic claim, or "measured". */
export function verdict(c: Claim): string {
  return c.holds === null ? 'measured' : c.holds ? 'holds' : 'DOES NOT HOLD';
}

/**
 * What `enginekit-bench experiment` prints for a result, every line at most `width` characters:
 * the title and the posts, each claim (ours beside the post's), the tables (split and wrapped to
 * the width, see formatTable), and the machine.
 */
export function resultText(result: ExperimentResult, width: number): string {
  const lines: string[] = [...wrapText(result.title, width)];
  for (const s of result.post.sources ?? []) lines.push(...wrapText(citation(s), width, '  '));
  lines.push('');
  for (const c of result.claims) {
    lines.push(...wrapText(`* ${c.text}`, width, '  '));
    lines.push(...wrapText(`    the post: ${c.post}`, width, '              '));
    const mark = c.holds === null ? '' : `  [${verdict(c)}]`;
    lines.push(...wrapText(`    this run: ${c.ours}${mark}`, width, '              '));
  }
  lines.push('');
  for (const t of result.tables) lines.push(formatTable(t, width), '');
  const m = result.machine;
  const machine = `${m.cpuModel}, ${m.cores} cores, Node ${m.nodeVersion}, load average ${m.loadAverage.join(' ')} → ${m.loadAverageAfter?.join(' ')}, commit ${m.gitCommit?.slice(0, 10) ?? 'unknown'}, ${(result.durationMs / 1000).toFixed(1)} s`;
  lines.push(...wrapText(machine, width, '  '));
  return `${lines.join('\n')}\n`;
}

/** An experiment's verdicts in a few words: checks that hold, figures measured, what failed, a skip. */
export function verdictLine(r: ExperimentResult): string {
  if (typeof r.config.skipped === 'string') return `skipped: ${r.config.skipped}`;
  const checked = r.claims.filter((c) => c.holds !== null);
  const held = checked.filter((c) => c.holds === true).length;
  const measured = r.claims.length - checked.length;
  const parts: string[] = [];
  if (checked.length > 0) parts.push(`${held} of ${checked.length} checks hold`);
  if (measured > 0) parts.push(`${measured} measured figure${measured === 1 ? '' : 's'} beside the post's`);
  const failed = checked.find((c) => c.holds === false);
  if (failed !== undefined) parts.push(`does not hold: ${failed.text}`);
  return parts.join('; ');
}

/** One line per experiment for the end of the tour (wrapped under its text when longer). */
export function verdictSummary(results: readonly ExperimentResult[], width: number): string {
  const name = Math.max(...results.map((r) => r.experiment.length));
  const lines: string[] = [];
  for (const r of results) {
    const head = `  ${r.experiment.padEnd(name)}  `;
    for (const [i, l] of wrapText(verdictLine(r), width - head.length).entries())
      lines.push(`${i === 0 ? head : ' '.repeat(head.length)}${l}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * MariaDB's EXPLAIN text for an MRR scan (`DsMrr_impl::dsmrr_explain_info`): "Key-ordered scan",
 * "Rowid-ordered scan", "Key-ordered Rowid-ordered scan", or "" when the default
 * implementation runs (MariaDB prints nothing then, and never "Using MRR").
 */
export function explainMrr(keyOrdered: boolean, rowidOrdered: boolean): string {
  if (keyOrdered && rowidOrdered) return 'Key-ordered Rowid-ordered scan';
  if (keyOrdered) return 'Key-ordered scan';
  if (rowidOrdered) return 'Rowid-ordered scan';
  return '';
}

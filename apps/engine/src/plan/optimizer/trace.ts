/**
 * The optimizer trace of the last traced statement (`SET optimizer_trace='enabled=on'`, read from
 * `information_schema.OPTIMIZER_TRACE`): a JSON document with, per query block, the access paths
 * considered per table and the join orders the search costed, as MySQL's `considered_execution_plans`.
 */
export class OptimizerTrace {
  readonly steps: unknown[] = [];
  query = '';

  add(step: unknown): void {
    this.steps.push(step);
  }

  json(): string {
    return JSON.stringify({ steps: this.steps }, null, 2);
  }
}

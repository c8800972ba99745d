import type { JoinStats } from '../stats.js';
import type { Emit, JoinSpec } from '../types.js';
import { checkFunction, checkJoinType, checkSource } from './validate.js';

/** Validate the parts every operator shares. */
export function checkSpec<O, I>(spec: JoinSpec<O, I>, emit: Emit<O, I>): void {
  if (typeof spec !== 'object' || spec === null)
    throw new TypeError(`spec must be an object, got ${String(spec)}`);
  checkJoinType(spec.type);
  checkSource('spec.outer', spec.outer);
  checkFunction('spec.outerKey', spec.outerKey);
  checkFunction('spec.innerKey', spec.innerKey);
  if (spec.condition !== undefined) checkFunction('spec.condition', spec.condition);
  checkFunction('emit', emit);
}

/** Wrap `emit` so every output row is counted in `stats.rowsOut`. */
export function countingEmit<O, I>(emit: Emit<O, I>, stats: JoinStats): Emit<O, I> {
  return (o, i) => {
    stats.rowsOut++;
    emit(o, i);
  };
}

import { T_INT, T_STR } from '../../exec/types.js';
import { registerSystemTable } from '../system-tables.js';

/**
 * information_schema.OPTIMIZER_TRACE as MySQL: one row for the last statement traced in this
 * session (QUERY, TRACE as JSON, MISSING_BYTES_BEYOND_MAX_MEM_SIZE, INSUFFICIENT_PRIVILEGES).
 */
registerSystemTable('information_schema', 'OPTIMIZER_TRACE', {
  columns: ['QUERY', 'TRACE', 'MISSING_BYTES_BEYOND_MAX_MEM_SIZE', 'INSUFFICIENT_PRIVILEGES'],
  types: [T_STR, T_STR, T_INT, T_INT],
  rows(env) {
    const t = env.optimizerTrace?.();
    return t === undefined ? [] : [[t.query, t.trace, 0, 0]];
  },
});

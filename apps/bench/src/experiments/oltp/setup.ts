/** The sysbench tests and server settings of `oltp`, read by its measure and its present. */

export const TESTS = ['oltp_point_select', 'oltp_read_only', 'oltp_write_only', 'oltp_read_write'] as const;
/** Tests that write: run in transactions, restarted after a deadlock or a lock wait timeout. */
export const WRITES: ReadonlySet<string> = new Set(['oltp_write_only', 'oltp_read_write']);
/** innodb_buffer_pool_size of both servers. */
export const POOL: number = 128 << 20;
/** Both servers write the redo log at commit and flush it once a second. */
export const FLUSH = 2;

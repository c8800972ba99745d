export { Database } from './storage/database.js';
export { attachDatabase, shareDatabase } from './storage/attach.js';
export type { AttachDescriptor } from './storage/attach.js';
export type { DatabaseOptions } from './storage/database.js';
export { Catalog } from './storage/catalog.js';
export type { CatalogRoots, IndexEntry, TableEntry } from './storage/catalog.js';
export { describeIndex, Table } from './storage/table.js';
export type { EntryTest, EntryVisit, KeyRange, TableIndex } from './storage/table.js';
export { TableHandler } from './handler/table-handler.js';
export type { RowSink } from './handler/table-handler.js';
export { dayToText, decimalToText, RowBuffer } from './storage/row.js';
export { buildIndexFromTable, TableLoader } from './storage/index-build.js';
export type { IndexBuildOptions } from './storage/index-build.js';
export { HANDLER_COUNTERS } from './storage/counters.js';
export type { HandlerCounter } from './storage/counters.js';
export {
  DuplicateEntryError,
  FileLengthError,
  FormatVersionError,
  NoSuchObjectError,
  NotADatabaseError,
} from './storage/errors.js';
export { FORMAT_VERSION, MAGIC } from './storage/header.js';
export { RedoLogError, RedoLogFullError, redoFiles, removeRedoFiles } from './storage/redo/index.js';
export type {
  DurabilityOptions,
  FlushLogAtTrxCommit,
  MtrStore,
  RecoveryReport,
  RedoLog,
  RedoStats,
} from './storage/redo/index.js';
export { verifyDatabaseFile } from './storage/verify.js';
export type { FileVerification } from './storage/verify.js';
export { decimalBytes, MAX_DECIMAL_PRECISION, typeName } from './storage/types.js';
export type { ColumnType, FieldValue, IndexDef, StoredColumn, TableSchema } from './storage/types.js';
export { dbt3Schema, storageType } from './load/dbt3-schema.js';
export { loadTpch } from './load/tpch-load.js';
export type { LoadPhase, LoadProgress, TpchLoadOptions, TpchLoadResult } from './load/tpch-load.js';
export { SqlError } from './sql/errors.js';
export type { ErrorCode } from './sql/errors.js';
export { Session } from './session/session.js';
export type { QueryResult } from './session/session.js';
export { describeAddress, MysqlServer } from './server/server.js';
export type { ListenAddress, ServeOptions } from './server/server.js';
export { cardinality, exactStatistics, innodbRecPerKey, recPerKey } from './storage/statistics.js';
export type { IndexStatistics, StatisticsSource, TableStatistics } from './storage/statistics.js';
export type { StatsSettings, TableStatsOptions } from './storage/stats/settings.js';
export { LockTable, LockTableFullError } from './txn/lock-table.js';
export type { LockMode, LockTableOptions } from './txn/lock-table.js';
export { DatabaseInstance, instanceOf } from './session/instance.js';
export { ReadView } from './storage/read-view.js';
export { TrxSys } from './storage/trx-sys.js';
export type { UndoLogRef, UndoPosition } from './storage/undo-log.js';
export { UndoSpace } from './storage/undo-log.js';
export type { UndoRecord } from './storage/undo-format.js';
export type { PurgeBatch } from './storage/purge.js';
export type { WorkerHostOptions } from './server/worker-session-host.js';
export { WorkerSessionHost } from './server/worker-session-host.js';

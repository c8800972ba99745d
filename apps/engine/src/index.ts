export { generateTpch, TPCH_TABLES } from './tpch/generate.js';
export type { GeneratedFile, GenerateOptions, GenerateResult, TpchStep, TpchTable } from './tpch/generate.js';
export { chunkRange, scalePlan, BASE_ROWS, MAX_SCALE, SUPPLIERS_PER_PART } from './tpch/scale.js';
export type { RowRange, ScalePlan } from './tpch/scale.js';
export { TPCH_SCHEMA, typeName } from './tpch/schema.js';
export type { ColumnDef, ColumnType, TableDef } from './tpch/schema.js';
export { TblFormatError } from './tpch/errors.js';
export { TblParser, parseTbl, readTbl, readTblBatches } from './tpch/tbl-reader.js';
export type {
  ColumnVector,
  IntColumn,
  ReadOptions,
  TblData,
  TextColumn,
  WideColumn,
} from './tpch/tbl-reader.js';
export { buildTextPool, textPool, TEXT_POOL_SIZE } from './tpch/text-pool.js';
export { RowStreams, Stream, STREAM_COUNT, STREAM_TABLE, TableId } from './tpch/streams.js';
export { DATE_BYTES, dateText, CURRENT_DAY_OFFSET, START_EPOCH_DAY, TOTAL_DAYS } from './tpch/dates.js';
export { partSupplier, retailPriceCents } from './tpch/part.js';
export { sparseOrderKey } from './tpch/orders.js';
export * as dists from './tpch/dists.js';
export { Rng64Stream, RNG64_A, RNG64_C } from './tpch/rng64.js';
export { WIDE_KEY_SCALE, writeOrders } from './tpch/orders.js';
export { TblWriter } from './tpch/tbl-writer.js';
// storage half of issue 8: database file, catalog, tables and indexes
export { Database } from './storage/database.js';
export type { DatabaseOptions } from './storage/database.js';
export { Catalog } from './storage/catalog.js';
export type { CatalogRoots, IndexEntry, TableEntry } from './storage/catalog.js';
export { Table, describeIndex } from './storage/table.js';
export type { TableIndex } from './storage/table.js';
export { RowBuffer, RowCodec, dayToText, decimalToText } from './storage/row.js';
export { KeyEncoder, keySpec } from './storage/key-encoder.js';
export { SecondaryBuilder, TableLoader, buildIndexFromTable } from './storage/index-build.js';
export type { IndexBuildOptions } from './storage/index-build.js';
export { HANDLER_COUNTERS, HandlerStats } from './storage/counters.js';
export type { HandlerCounter } from './storage/counters.js';
export {
  DuplicateEntryError,
  FormatVersionError,
  NoSuchObjectError,
  NotADatabaseError,
} from './storage/errors.js';
export { FORMAT_VERSION, MAGIC } from './storage/header.js';
export { decimalBytes, MAX_DECIMAL_PRECISION } from './storage/types.js';
export type { FieldValue, IndexDef, StoredColumn, TableSchema } from './storage/types.js';
export { DBT3_KEYS, dbt3Schema } from './load/dbt3.js';
export { estimateRows, loadTpch } from './load/tpch-load.js';
export type { LoadPhase, LoadProgress, TpchLoadOptions, TpchLoadResult } from './load/tpch-load.js';
export { SqlError } from './sql/errors.js';
export type { ErrorCode } from './sql/errors.js';
export { Session } from './session/session.js';
export type { QueryResult } from './session/session.js';

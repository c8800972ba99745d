export { generateTable, generateTpch, TPCH_TABLES } from './generate.js';
export type { GeneratedFile, GenerateOptions, GenerateResult, TpchStep, TpchTable } from './generate.js';
export { BASE_ROWS, chunkRange, MAX_SCALE, scalePlan, SUPPLIERS_PER_PART } from './scale.js';
export type { RowRange, ScalePlan } from './scale.js';
export { TPCH_SCHEMA, typeName } from './schema.js';
export type { ColumnDef, ColumnType, TableDef } from './schema.js';
export { DBT3_KEYS } from './dbt3.js';
export type { Dbt3Index, Dbt3Keys } from './dbt3.js';
export { TblFormatError } from './errors.js';
export { parseTbl, readTbl, readTblBatches, TblParser } from './tbl-reader.js';
export type {
  ColumnVector,
  IntColumn,
  ReadOptions,
  TblData,
  TextColumn,
  WideColumn,
} from './tbl-reader.js';
export { TblWriter, WRITE_BUFFER_SIZE } from './tbl-writer.js';
export type { TblSink } from './tbl-writer.js';
export { TPCH_QUERIES, tpchQuery } from './queries/query.js';
export type { TpchQueryOptions } from './queries/query.js';
export { qgenParameters, TPCH_QUERY_COUNT, validationParameters } from './queries/qgen.js';
export type { QueryTemplate, TpchQueryText } from './queries/template.js';
export { TPCH_VARIANT_NAMES, tpchVariant } from './queries/variants.js';
export type { TpchVariantName } from './queries/variants.js';

export interface Condition {
  readonly skip: boolean;
  readonly engine: string;
}
interface Base {
  readonly line: number;
  readonly conditions: readonly Condition[];
}
export interface StatementRecord extends Base {
  readonly kind: 'statement';
  readonly expectError: boolean;
  readonly sql: string;
}
export interface QueryRecord extends Base {
  readonly kind: 'query';
  readonly types: string;
  readonly sort: 'nosort' | 'rowsort' | 'valuesort';
  readonly label: string | undefined;
  readonly sql: string;
  readonly expected: readonly string[];
}
export interface ThresholdRecord extends Base {
  readonly kind: 'hash-threshold';
  readonly threshold: number;
}
export interface HaltRecord extends Base {
  readonly kind: 'halt';
}
export type SltRecord = StatementRecord | QueryRecord | ThresholdRecord | HaltRecord;
export declare class SltFormatError extends Error {
  constructor(file: string, line: number, what: string);
}
export declare function parseSlt(text: string, file?: string): SltRecord[];
export declare function appliesTo(record: SltRecord, engine: string): boolean;
export declare function recordsFor(records: readonly SltRecord[], engine: string): SltRecord[];

import type { SltRecord } from './sql-slt-parse.js';
export interface SltAdapter {
  exec(sql: string): { columns?: readonly string[]; rows?: readonly (readonly unknown[])[] } | undefined;
  close?(): void;
}
export declare function errorCause(e: unknown): string;
export declare function runRecord(
  adapter: SltAdapter,
  record: SltRecord,
  labels: Map<string, string>,
): { ok: boolean; cause?: string; detail?: string };

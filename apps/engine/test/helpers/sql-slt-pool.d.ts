export interface SltFailure {
  readonly index: number;
  readonly line: number;
  readonly sql: string;
  readonly cause: string;
  readonly detail: string;
}
export interface SltFileResult {
  readonly file: string;
  readonly total: number;
  readonly passed: number;
  readonly failures: readonly SltFailure[];
  readonly seconds: number;
  readonly timeouts: number;
}
export interface SltRunOptions {
  /** The engine name `skipif`/`onlyif` lines are matched against. */
  readonly engine: string;
  /** URL of a module exporting `createAdapter(options)`. */
  readonly adapterModule: string;
  readonly adapterOptions?: unknown;
  /** A record running longer than this fails as a timeout (default 10 s). */
  readonly timeoutMs?: number;
  /** The worker's heap limit in MB (default 1024). */
  readonly heapMb?: number;
  /** Worker restarts allowed per file before the rest of it is failed (default 1000). */
  readonly maxRestarts?: number;
}
export declare function runSltFile(file: string, options: SltRunOptions): Promise<SltFileResult>;
export declare function runSltFiles(
  files: readonly string[],
  options: SltRunOptions & { concurrency?: number; onFile?: (r: SltFileResult) => void },
): Promise<SltFileResult[]>;

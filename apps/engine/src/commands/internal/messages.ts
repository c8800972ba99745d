import type { TpchStep } from '@enginekit/tpch';
import type { LoadProgress } from '../../load/tpch-load.js';

/** Progress a job reports while it works. */
export type JobProgress =
  | { readonly kind: 'gen'; readonly step: TpchStep; readonly done: number; readonly total: number }
  | { readonly kind: 'load'; readonly progress: LoadProgress };

/** What a job's worker sends to the main thread. */
export type JobMessage =
  | { readonly type: 'progress'; readonly progress: JobProgress }
  | { readonly type: 'out'; readonly text: string }
  | { readonly type: 'done' }
  | { readonly type: 'fail'; readonly status: number; readonly line: string; readonly stack?: string };

/** The jobs that run in a worker thread, by name. */
export type JobKind = 'gen' | 'load' | 'demo';

/** What the main thread hands the worker. */
export interface JobData {
  readonly kind: JobKind;
  /** The command's options, as the command's work function takes them. */
  readonly options: unknown;
  /** The private temp directory of this run (every temp file goes in it). */
  readonly workdir: string;
}

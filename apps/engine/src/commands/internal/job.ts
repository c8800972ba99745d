import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { removeAllSpillDirectories } from '@enginekit/common';
import { EXIT } from './failure.js';
import type { JobData, JobKind, JobMessage, JobProgress } from './messages.js';
import { onStdoutClosed, writeErr, writeOut } from './output.js';

/** How a job is run and what it leaves behind if it does not finish. */
export interface JobOptions {
  readonly kind: JobKind;
  /** The command, for messages (`tpch load`). */
  readonly command: string;
  /** Handed to the command's work function in the worker. */
  readonly options: (workdir: string) => unknown;
  /** Files the job may create that must not survive a failure or an interrupt (the side file). */
  readonly partialFiles: readonly string[];
  /** Called for each progress report, on the main thread. */
  readonly onProgress?: (p: JobProgress) => void;
  /** Called once the job has ended (before output is flushed), e.g. to stop progress bars. */
  readonly onEnd?: () => void;
}

const SIGNALS = [
  ['SIGINT', EXIT.sigint],
  ['SIGTERM', EXIT.sigterm],
  ['SIGHUP', EXIT.sighup],
] as const;

/**
 * Runs a long job (generation, a load) in a worker thread, so that the main thread stays free to
 * answer SIGINT/SIGTERM at once, even while the job is busy in synchronous work. Every temp file
 * goes into one private directory `enginekit-tpch-XXXXXX` (the worker's TMPDIR, and the sorters'
 * `tmpdir`); on an error, an interrupt, or a closed stdout the worker is stopped and that
 * directory and every partial file are removed before the process exits (1, 130, 143; 0 when the
 * reader of stdout went away). Resolves when the job succeeded.
 */
export function runJob(job: JobOptions): Promise<void> {
  const workdir = mkdtempSync(join(tmpdir(), 'enginekit-tpch-'));
  let finished = false;
  const cleanup = (partial: boolean): void => {
    removeAllSpillDirectories();
    if (partial) for (const f of job.partialFiles) rmSync(f, { force: true });
    rmSync(workdir, { recursive: true, force: true });
  };
  // the last resort: whatever path leads to exit, nothing partial stays
  const onExit = (): void => cleanup(!finished);
  process.on('exit', onExit);

  const data: JobData = { kind: job.kind, options: job.options(workdir), workdir };
  const worker = new Worker(new URL('./cli-worker.js', import.meta.url), {
    workerData: data,
    env: { ...process.env, TMPDIR: workdir },
  });

  return new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (status: number, line?: string, stack?: string): void => {
      if (stopping) return;
      stopping = true;
      for (const [sig, handler] of handlers) process.off(sig, handler);
      void worker.terminate().finally(() => {
        job.onEnd?.();
        cleanup(true);
        if (line !== undefined) writeErr(`enginekit: ${job.command}: ${line}\n`);
        if (stack !== undefined && process.env.ENGINEKIT_DEBUG) writeErr(`${stack}\n`);
        process.exit(status);
      });
    };
    const handlers = SIGNALS.map(([sig, status]) => {
      const h = (): void => stop(status, `interrupted by ${sig}; partial and temp files removed`);
      process.on(sig, h);
      return [sig, h] as const;
    });
    onStdoutClosed(() => stop(EXIT.ok));

    worker.on('message', (m: JobMessage) => {
      if (stopping) return;
      switch (m.type) {
        case 'progress':
          job.onProgress?.(m.progress);
          break;
        case 'out':
          writeOut(m.text);
          break;
        case 'fail':
          stop(m.status, m.line, m.stack);
          break;
        case 'done':
          finished = true;
          for (const [sig, handler] of handlers) process.off(sig, handler);
          job.onEnd?.();
          cleanup(false);
          process.off('exit', onExit);
          resolve();
          break;
      }
    });
    worker.on('error', (e) => stop(EXIT.data, `internal error: ${e.message}`, e.stack));
    worker.on('exit', (code) => {
      if (!finished && !stopping) stop(EXIT.data, `internal error: the job ended with code ${code}`);
    });
  });
}

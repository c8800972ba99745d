import { CorruptionError } from '@enginekit/buffer-pool';
import { DiskFullError, DuplicateKeyError, TempFileError } from '@enginekit/common';
import { TblFormatError } from '@enginekit/tpch';
import { UsageError } from '../cli-args.js';
import {
  DuplicateEntryError,
  FileLengthError,
  FormatVersionError,
  NotADatabaseError,
} from '../../storage/errors.js';
import { NeedsRecoveryError } from '../../storage/read-only.js';
import { RedoLogError } from '../../storage/redo/errors.js';

/** A check of the command's target or input that failed before any work (exit status 1). */
export class TargetError extends Error {
  override readonly name = 'TargetError';
}

/** Exit statuses, as `--help` states them. */
export const EXIT = { ok: 0, data: 1, usage: 2, sigint: 130, sigterm: 143, sighup: 129 } as const;

const SYSTEM_WORDS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EISDIR: 'is a directory',
  ENOTDIR: 'a path component is not a directory',
  EEXIST: 'already exists',
  EROFS: 'read-only file system',
  EMFILE: 'too many open files',
  EIO: 'input/output error',
};

interface SystemError extends Error {
  code: string;
  path?: string;
  syscall?: string;
}

function isSystemError(e: unknown): e is SystemError {
  return (
    e instanceof Error &&
    typeof (e as Partial<SystemError>).code === 'string' &&
    /^E[A-Z]+$/.test((e as SystemError).code)
  );
}

/**
 * True for what the input or the data caused (a bad `.tbl` line, a duplicate key, a file that is
 * not a database or is corrupt, a full disk, a missing file): reported in one line, exit 1.
 */
export function isDataError(e: unknown): e is Error {
  return (
    e instanceof TargetError ||
    e instanceof TblFormatError ||
    e instanceof DuplicateEntryError ||
    e instanceof DuplicateKeyError ||
    e instanceof NotADatabaseError ||
    e instanceof FormatVersionError ||
    e instanceof FileLengthError ||
    e instanceof CorruptionError ||
    e instanceof RedoLogError ||
    e instanceof NeedsRecoveryError ||
    e instanceof DiskFullError ||
    e instanceof TempFileError ||
    isSystemError(e)
  );
}

/** One line for an error: a system error as `PATH: what happened (CODE)`, anything else its message. */
export function describeError(e: unknown): string {
  if (isSystemError(e)) {
    const words = SYSTEM_WORDS[e.code] ?? e.message;
    return e.path === undefined ? `${words} (${e.code})` : `${e.path}: ${words} (${e.code})`;
  }
  if (e instanceof Error) return e.message.split('\n')[0]!;
  return String(e);
}

/** A failure another thread already turned into its status and line (see {@link failure}). */
export class ReportedFailure extends Error {
  override readonly name = 'ReportedFailure';
  readonly status: number;
  readonly line: string;
  readonly reportedStack: string | undefined;

  constructor(status: number, line: string, stack?: string) {
    super(line);
    this.status = status;
    this.line = line;
    this.reportedStack = stack;
  }
}

/** What the command prints and the status it exits with for an error. */
export function failure(e: unknown): { status: number; line: string; stack?: string } {
  if (e instanceof ReportedFailure)
    return e.reportedStack === undefined
      ? { status: e.status, line: e.line }
      : { status: e.status, line: e.line, stack: e.reportedStack };
  if (e instanceof UsageError) return { status: EXIT.usage, line: e.message };
  if (isDataError(e)) return { status: EXIT.data, line: describeError(e) };
  const line = `internal error: ${describeError(e)}`;
  return e instanceof Error && e.stack !== undefined
    ? { status: EXIT.data, line, stack: e.stack }
    : { status: EXIT.data, line };
}

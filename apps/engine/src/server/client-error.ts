import { SqlError } from '../sql/errors.js';
import type { ProtocolError } from './packets/err.js';
import { ExecuteArgumentsError } from './packets/stmt-execute.js';

/**
 * What a client reads for an error a command raised. A `SqlError` keeps its number, SQLSTATE and
 * message. JavaScript's own errors (a TypeError, a RangeError, a plain Error, a WebAssembly trap)
 * are failures inside the engine: their text names the engine's internals, so the client gets
 * 1105 with a fixed message and the details go to the server's log. Running out of stack is the
 * statement's nesting, answered as MySQL does (1436). The engine's named error classes
 * (a damaged page, a full redo log) carry messages written for people and keep them.
 */
export function asProtocolError(e: unknown, connectionId = 0): ProtocolError {
  if (e instanceof SqlError) return { errno: e.errno, sqlState: e.sqlState, message: e.message };
  if (e instanceof ExecuteArgumentsError)
    return { errno: 1210, sqlState: 'HY000', message: 'Incorrect arguments to mysqld_stmt_execute' };
  if (e instanceof RangeError && /call stack/i.test(e.message))
    return {
      errno: 1436,
      sqlState: 'HY000',
      message: "Thread stack overrun: the statement nests too deeply for the server's stack",
    };
  if (e instanceof Error && !NATIVE.has(e.name) && e.constructor !== Error && !isNative(e))
    return { errno: 1105, sqlState: 'HY000', message: e.message };
  logInternal(connectionId, e);
  return { errno: 1105, sqlState: 'HY000', message: INTERNAL_MESSAGE };
}

/** The message of 1105 for a failure inside the engine. */
export const INTERNAL_MESSAGE = "Unknown error (an internal failure; the server's log has the details)";

const NATIVE = new Set([
  'Error',
  'TypeError',
  'RangeError',
  'ReferenceError',
  'SyntaxError',
  'EvalError',
  'URIError',
  'AggregateError',
  'CompileError',
  'LinkError',
  'RuntimeError',
]);

function isNative(e: Error): boolean {
  return (
    e instanceof TypeError ||
    e instanceof RangeError ||
    e instanceof ReferenceError ||
    e instanceof SyntaxError ||
    e instanceof EvalError ||
    e instanceof URIError
  );
}

/** Where internal failures are written (the server's stderr); a test may replace it. */
export const internalLog = {
  write: (line: string): void => {
    process.stderr.write(line);
  },
};

function logInternal(connectionId: number, e: unknown): void {
  const text = e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : String(e);
  internalLog.write(`enginekit: connection ${connectionId}: internal error: ${text}\n`);
}

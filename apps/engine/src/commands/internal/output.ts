/**
 * Writing to stdout and stderr. A reader that goes away (`enginekit demo | head -3`) closes our
 * stdout: the next write fails with EPIPE, which ends the program quietly (through the handler
 * a running job installs, so it cleans up first) instead of printing a stack trace.
 */
let closedHandler: (() => void) | undefined;
let closed = false;

function onError(e: NodeJS.ErrnoException): void {
  if (e.code !== 'EPIPE') throw e;
  if (closed) return;
  closed = true;
  if (closedHandler !== undefined) closedHandler();
  else process.exit(0);
}

process.stdout.on('error', onError);
process.stderr.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
});

/** Calls `fn` (once) when stdout's reader has gone away, instead of exiting at once. */
export function onStdoutClosed(fn: () => void): void {
  closedHandler = fn;
}

export function writeOut(text: string): void {
  if (!closed) process.stdout.write(text);
}

export function writeErr(text: string): void {
  process.stderr.write(text);
}

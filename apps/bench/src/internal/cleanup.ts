/**
 * Work to do however the process ends: a normal exit, an uncaught error, Ctrl-C or SIGTERM
 * (then the process exits with 130 after running it). Each function runs once, synchronously;
 * `release` drops one that is no longer needed.
 */
const tasks = new Set<() => void>();
let hooked = false;

function runAll(): void {
  for (const t of [...tasks]) {
    tasks.delete(t);
    try {
      t();
    } catch {
      // the others still run
    }
  }
}

export function onExit(task: () => void): () => void {
  if (!hooked) {
    hooked = true;
    process.on('exit', runAll);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        runAll();
        process.exit(130);
      });
    }
  }
  tasks.add(task);
  return () => void tasks.delete(task);
}

/** Runs every registered task now (for test runners whose workers end without an exit event). */
export function cleanupNow(): void {
  runAll();
}

import { createInterface, type Interface } from 'node:readline';
import { splitStatements } from '../sql/split.js';

const PROMPT = 'enginekit> ';
const CONTINUE = '        -> ';

/** What the interactive loop of `enginekit sql` reads from, writes to and runs. */
export interface ReplOptions {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  /** Line editing, history and Ctrl-C as keys (a terminal); false for piped input. */
  readonly terminal: boolean;
  /**
   * Runs one complete statement and prints its result or its error; a promise while it runs
   * elsewhere (a worker thread), which the loop waits for before the next statement.
   */
  readonly run: (sql: string, vertical: boolean) => void | Promise<void>;
  /** Ctrl-C while a statement runs: asks it to stop (it ends with 1317). */
  readonly interrupt?: () => void;
  /** Statements of earlier sessions, oldest first; every statement run is appended. */
  readonly history: string[];
  /** Called once when the input ends (Ctrl-D, `quit`, end of a pipe) and every statement ran. */
  readonly onClose: () => void;
}

/** Readline's own way to end the line being edited (move to its end, new line, empty buffer). */
type Clearable = Interface & { clearLine?: () => void; line: string; cursor: number };

/**
 * The statement loop: lines are gathered until a `;` or `\G` ends a statement (the prompt
 * turns into `->` meanwhile), each complete statement is run in turn, and `quit`, `exit` or `\q`
 * leave. Ctrl-C, on the first line of a statement or any later one, drops everything typed for
 * it, the line being edited included, and gives a fresh prompt with an empty line, as the
 * mariadb client does; the session goes on. Ctrl-C while a statement runs interrupts that
 * statement (the mariadb client's "query killed"), and the loop continues with what was typed
 * after it.
 */
export function startRepl(o: ReplOptions): Interface {
  const rl = createInterface({
    input: o.input,
    output: o.output,
    prompt: PROMPT,
    historySize: 1000,
    terminal: o.terminal,
  }) as Clearable;
  const recall = rl as Interface & { history?: string[] };
  if (Array.isArray(recall.history)) recall.history.splice(0, 0, ...[...o.history].reverse().slice(0, 1000));
  let buffer = '';
  /** Complete statements not run yet (typed while one ran). */
  const queue: Array<{ sql: string; vertical: boolean }> = [];
  let busy = false;
  /** `quit` was typed: leave once the queue is empty. */
  let quitting = false;
  /** The input ended (readline closed): end once the queue is empty. */
  let inputEnded = false;
  let ended = false;

  const finish = (): void => {
    if (ended) return;
    ended = true;
    o.onClose();
  };
  /** Runs the queued statements in order; a statement running elsewhere is waited for. */
  const pump = (): void => {
    while (queue.length > 0) {
      const st = queue.shift()!;
      const r = o.run(st.sql, st.vertical);
      if (r instanceof Promise) {
        busy = true;
        void r.finally(() => {
          busy = false;
          pump();
        });
        return;
      }
    }
    if (quitting && !inputEnded) rl.close();
    if (inputEnded) {
      finish();
      return;
    }
    rl.setPrompt(buffer === '' ? PROMPT : CONTINUE);
    rl.prompt();
  };

  rl.prompt();
  rl.on('line', (line) => {
    if (quitting) return;
    buffer += (buffer.length > 0 ? '\n' : '') + line;
    const trimmed = buffer.trim();
    if (trimmed === '') {
      buffer = '';
      if (!busy) pump();
      return;
    }
    if (/^(quit|exit|\\q);?$/i.test(trimmed)) {
      buffer = '';
      quitting = true;
      if (!busy) pump();
      return;
    }
    const parts = splitStatements(buffer, true);
    for (const st of parts.filter((p) => p.complete)) {
      o.history.push(st.sql.replace(/\s*\n\s*/g, ' '));
      queue.push({ sql: st.sql, vertical: st.vertical });
    }
    buffer = parts.find((p) => !p.complete)?.sql ?? '';
    if (!busy) pump();
  });
  rl.on('SIGINT', () => {
    if (busy) {
      o.output.write('^C\nCtrl-C -- query killed. Continuing normally.\n');
      o.interrupt?.();
      return;
    }
    // Show the interrupt after what was typed (the cursor may be anywhere in the line), then let
    // readline end the line and empty its buffer, so new typing starts on a clean line.
    rl.write(null, { ctrl: true, name: 'e' });
    o.output.write('^C');
    if (typeof rl.clearLine === 'function') rl.clearLine();
    else {
      o.output.write('\n');
      rl.line = '';
      rl.cursor = 0;
    }
    buffer = '';
    rl.setPrompt(PROMPT);
    rl.prompt();
  });
  rl.on('close', () => {
    inputEnded = true;
    if (!busy && queue.length === 0) finish();
  });
  return rl;
}

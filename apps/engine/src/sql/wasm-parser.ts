import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The WASM parser instance (`@guanmingchiu/sqlparser-ts`: datafusion-sqlparser-rs built with
 * wasm-bindgen) and its replacement when it breaks.
 *
 * The parser runs on a shadow stack of 1 MiB inside the instance's linear memory. A statement
 * whose tree is deep enough (a chain of about a thousand `+` or `OR` terms: the tree is walked
 * recursively when it is turned into JavaScript objects) overflows it, and the instance traps
 * (`RuntimeError: memory access out of bounds`, or a `RangeError` when V8's own stack runs out
 * first). A trapped instance keeps its stack pointer and allocator where the trap left them, so
 * every later call on it fails: one statement would break the parser of every session on the
 * thread. Any exception other than the parser's own error object therefore throws the instance
 * away; the next call instantiates a fresh one from the compiled module (kept, so a
 * replacement costs an instantiation, not a compilation).
 *
 * wasm-bindgen's glue keeps the instance in module-level variables and instantiates at most once,
 * so a fresh instance needs a fresh copy of the glue: its text is evaluated as a function body
 * (its `export` keywords dropped) once per instance.
 */

/** The parts of the WebAssembly global used here (the engine's TypeScript lib has no DOM types). */
interface CompiledModule {
  readonly __compiled: unique symbol;
}
const Wasm = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => CompiledModule } })
  .WebAssembly;

/** The glue's functions the engine calls. */
interface Glue {
  initSync(arg: { module: CompiledModule }): void;
  parse_sql(dialect: string, sql: string): unknown;
}

/** The parser's own error (a syntax error, or its recursion limit): a plain object with a message. */
export class ParserMessage {
  readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}

/** The instance failed (trapped or ran out of stack) on this statement; it has been replaced. */
export class ParserTrap {
  readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}

let compiled: CompiledModule | undefined;
let glueBody: string | undefined;
let current: Glue | undefined;
let instances = 0;

/** How many parser instances this thread has made (1 + the replacements); for tests. */
export function parserInstances(): number {
  return instances;
}

function files(): { glue: string; wasm: string } {
  const req = createRequire(import.meta.url);
  const dir = join(dirname(req.resolve('@guanmingchiu/sqlparser-ts')), '..', 'wasm');
  return { glue: join(dir, 'sqlparser_rs_wasm.js'), wasm: join(dir, 'sqlparser_rs_wasm_bg.wasm') };
}

/** The glue module's text as a function body that returns its functions. */
function body(text: string): string {
  const out = text
    .replace(/^export function /gm, 'function ')
    .replace(/^export \{[^}]*\};?\s*$/gm, '')
    .replace(/import\.meta\.url/g, "'file:///'");
  if (/^\s*(import|export)\b/m.test(out) || !/function initSync\(/.test(out))
    throw new Error('the sqlparser-ts glue has a shape this engine does not know');
  return `${out}\nreturn { initSync, parse_sql };`;
}

function instantiate(): Glue {
  if (compiled === undefined || glueBody === undefined) {
    const f = files();
    glueBody = body(readFileSync(f.glue, 'utf8'));
    compiled = new Wasm.Module(readFileSync(f.wasm));
  }
  const g = new Function(glueBody)() as Glue;
  g.initSync({ module: compiled });
  instances++;
  return g;
}

let parses = 0;
/** Statements given to the parser since the process started. */
export function wasmParses(): number {
  return parses;
}

/**
 * Parses `sql` with the `mysql` dialect. Throws {@link ParserMessage} for the parser's own errors
 * and {@link ParserTrap} when the instance failed (the next call gets a new one).
 */
export function wasmParse(sql: string): unknown[] {
  current ??= instantiate();
  parses++;
  try {
    return current.parse_sql('mysql', sql) as unknown[];
  } catch (e) {
    if (typeof e === 'string') throw new ParserMessage(e);
    if (e !== null && typeof e === 'object' && !(e instanceof Error)) {
      const m = (e as { message?: unknown }).message;
      throw new ParserMessage(typeof m === 'string' ? m : JSON.stringify(e));
    }
    current = undefined;
    throw new ParserTrap(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
  }
}

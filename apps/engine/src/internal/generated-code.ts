/**
 * Functions generated from source text, compiled once per distinct text.
 *
 * The engine generates small functions per query (an expression's fast path, an aggregate step,
 * a row decoder for a column mask). Compiling the same text again for every execution of a query
 * would give V8 a new function each time, to be warmed up and optimized anew; here the text is
 * compiled once into a factory, and each use calls the factory with its own values (frames,
 * callbacks), so every closure it returns shares the one compiled, already optimized code.
 * The texts carry slot numbers but no values: a query's constants are passed in like its frames,
 * so the same statement with other literals (a text point select with a new id) finds its code.
 */

/** Distinct texts kept; past this the cache starts over (a workload of ever new constants). */
const MAX_TEXTS = 4096;

const factories = new Map<string, (...args: unknown[]) => unknown>();

/**
 * `new Function(...params, body)` compiled once per distinct `params` and `body`, then called
 * with `args`: the body's `return` value (typically the generated function).
 */
export function generated<T>(params: readonly string[], body: string, args: readonly unknown[]): T {
  const key = `${params.join(',')}\n${body}`;
  let f = factories.get(key);
  if (f === undefined) {
    if (factories.size >= MAX_TEXTS) factories.clear();
    f = new Function(...params, body) as (...args: unknown[]) => unknown;
    factories.set(key, f);
  }
  return f(...args) as T;
}

/** Distinct texts compiled so far (since the cache last started over). */
export function generatedTexts(): number {
  return factories.size;
}

/**
 * Narrow reading helpers for the parser's AST. At runtime the nodes are serde's externally tagged
 * JSON (snake_case fields; a unit variant is a string, a variant with data is `{ Name: data }`),
 * which differs from the package's shipped `.d.ts`; the engine reads only through these helpers.
 */

export type Node = unknown;
export type Obj = Record<string, unknown>;

/** The variant name and payload of a tagged node (`'Wildcard'` → ['Wildcard', undefined]). */
export function tagOf(n: Node): [string, unknown] {
  if (typeof n === 'string') return [n, undefined];
  if (n !== null && typeof n === 'object') {
    const keys = Object.keys(n);
    if (keys.length === 1) return [keys[0]!, (n as Obj)[keys[0]!]];
  }
  return ['', n];
}

export function obj(n: unknown): Obj {
  return n !== null && typeof n === 'object' ? (n as Obj) : {};
}

export function arr(n: unknown): unknown[] {
  return Array.isArray(n) ? n : [];
}

export function str(n: unknown): string | undefined {
  return typeof n === 'string' ? n : undefined;
}

/** An identifier's text (`{ value, quote_style, span }`). */
export function identText(n: unknown): string {
  const v = obj(n).value;
  return typeof v === 'string' ? v : '';
}

/** The parts of an ObjectName (`[{ Identifier: {...} }, …]`). */
export function objectName(n: unknown): string[] {
  return arr(n).map((p) => {
    const [t, v] = tagOf(p);
    return t === 'Identifier' ? identText(v) : identText(p);
  });
}

export interface Pos {
  readonly line: number;
  readonly column: number;
}

/** Where a node's first spanned token starts, or undefined when nothing in it has a span. */
export function posOf(n: unknown): Pos | undefined {
  return spanEdge(n, 'start');
}

/** Where a node's last spanned token ends (exclusive), or undefined when nothing in it has a span. */
export function endOf(n: unknown): Pos | undefined {
  return spanEdge(n, 'end');
}

/** The earliest span start or the latest span end anywhere in a node. */
function spanEdge(n: unknown, edge: 'start' | 'end'): Pos | undefined {
  const early = edge === 'start';
  let line = 0;
  let column = 0;
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) {
        const y: unknown = x[i];
        if (y !== null && typeof y === 'object') walk(y);
      }
      return;
    }
    const o = x as Obj;
    const span = o.span as Obj | undefined;
    if (span !== null && typeof span === 'object') {
      const at = span[edge] as Obj | undefined;
      const l = at?.line;
      if (typeof l === 'number' && l > 0) {
        const c = at!.column as number;
        if (
          line === 0 ||
          (early ? l < line || (l === line && c < column) : l > line || (l === line && c > column))
        ) {
          line = l;
          column = c;
        }
      }
    }
    for (const k in o) {
      const v = o[k];
      if (v !== null && typeof v === 'object') walk(v);
    }
  };
  if (n !== null && typeof n === 'object') walk(n);
  return line === 0 ? undefined : { line, column };
}

/** Every `Placeholder` value node (`?`), in text order, so parameters can be numbered by span. */
export function placeholders(root: unknown): Obj[] {
  const out: Obj[] = [];
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) {
      for (const x of n) walk(x);
      return;
    }
    if (n === null || typeof n !== 'object') return;
    const o = n as Obj;
    const val = obj(o.value);
    if ('Placeholder' in val && o.span !== undefined) {
      out.push(o);
      return;
    }
    for (const v of Object.values(o)) walk(v);
  };
  walk(root);
  const key = (o: Obj): number => {
    const s = obj(obj(o.span).start);
    return (s.line as number) * 1e7 + (s.column as number);
  };
  return out.sort((a, b) => key(a) - key(b));
}

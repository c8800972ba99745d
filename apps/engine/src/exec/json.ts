/**
 * JSON documents as MariaDB's JSON functions read and write them: a parser that keeps each number
 * as written (so `1.50` comes back as `1.50`), MariaDB's text form (`{"a": 1, "b": [1, 2]}`: a
 * space after each `:` and `,`), and JSON paths (`$`, `.key`, `."quoted key"`, `.*`, `[n]`, `[*]`).
 */

export type JsonNode =
  | { readonly k: 'obj'; readonly keys: string[]; readonly vals: JsonNode[] }
  | { readonly k: 'arr'; readonly items: JsonNode[] }
  | { readonly k: 'str'; readonly v: string }
  | { readonly k: 'num'; readonly text: string }
  | { readonly k: 'bool'; readonly v: boolean }
  | { readonly k: 'null' };

/**
 * Why a text is not JSON: `end` (MariaDB's 4037, "Unexpected end of JSON text") or `syntax` at
 * 1-based character `pos` (4038, "Syntax error in JSON text … at position pos").
 */
export interface JsonFault {
  readonly fault: 'end' | 'syntax';
  readonly pos: number;
}

export function isFault(x: unknown): x is JsonFault {
  return typeof x === 'object' && x !== null && 'fault' in x;
}

/** Parses a JSON text (RFC 8259: one value, whitespace around it). */
export function parseJson(text: string): JsonNode | JsonFault {
  let i = 0;
  const n = text.length;
  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  class Stop {
    constructor(readonly f: JsonFault) {}
  }
  const fail = (): never => {
    throw new Stop(i >= n ? { fault: 'end', pos: i + 1 } : { fault: 'syntax', pos: i + 1 });
  };
  const str = (): string => {
    // at the opening quote
    i++;
    let out = '';
    for (;;) {
      if (i >= n) fail();
      const c = text[i]!;
      if (c === '"') {
        i++;
        return out;
      }
      if (c === '\\') {
        i++;
        if (i >= n) fail();
        const e = text[i]!;
        const simple: Record<string, string> = {
          '"': '"',
          '\\': '\\',
          '/': '/',
          b: '\b',
          f: '\f',
          n: '\n',
          r: '\r',
          t: '\t',
        };
        if (simple[e] !== undefined) {
          out += simple[e];
          i++;
        } else if (e === 'u') {
          const hex = text.slice(i + 1, i + 5);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            i = Math.min(n, i + 1);
            fail();
          }
          out += String.fromCharCode(Number.parseInt(hex, 16));
          i += 5;
        } else fail();
        continue;
      }
      if (c.charCodeAt(0) < 0x20) fail();
      out += c;
      i++;
    }
  };
  const num = (): JsonNode => {
    const start = i;
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (text[i] !== undefined && text[i]! >= '1' && text[i]! <= '9')
      while (/[0-9]/.test(text[i] ?? '')) i++;
    else fail();
    if (text[i] === '.') {
      i++;
      if (!/[0-9]/.test(text[i] ?? '')) fail();
      while (/[0-9]/.test(text[i] ?? '')) i++;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!/[0-9]/.test(text[i] ?? '')) fail();
      while (/[0-9]/.test(text[i] ?? '')) i++;
    }
    return { k: 'num', text: text.slice(start, i) };
  };
  const word = (w: string, node: JsonNode): JsonNode => {
    for (let j = 0; j < w.length; j++) {
      if (i >= n || text[i] !== w[j]) fail();
      i++;
    }
    return node;
  };
  const value = (depth: number): JsonNode => {
    if (depth > 32) fail();
    ws();
    if (i >= n) fail();
    const c = text[i]!;
    if (c === '{') {
      i++;
      const keys: string[] = [];
      const vals: JsonNode[] = [];
      ws();
      if (text[i] === '}') {
        i++;
        return { k: 'obj', keys, vals };
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        keys.push(str());
        ws();
        if (text[i] !== ':') fail();
        i++;
        vals.push(value(depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return { k: 'obj', keys, vals };
        }
        fail();
      }
    }
    if (c === '[') {
      i++;
      const items: JsonNode[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return { k: 'arr', items };
      }
      for (;;) {
        items.push(value(depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return { k: 'arr', items };
        }
        fail();
      }
    }
    if (c === '"') return { k: 'str', v: str() };
    if (c === 't') return word('true', { k: 'bool', v: true });
    if (c === 'f') return word('false', { k: 'bool', v: false });
    if (c === 'n') return word('null', { k: 'null' });
    return num();
  };
  try {
    const v = value(0);
    ws();
    if (i < n) fail();
    return v;
  } catch (e) {
    if (e instanceof Stop) return e.f;
    throw e;
  }
}

/** A string as a JSON string literal, escaped as MariaDB writes it. */
export function quoteJson(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (c < 0x20) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** MariaDB's text form of a node: `{"a": 1, "b": [true, null]}`. */
export function jsonText(v: JsonNode): string {
  switch (v.k) {
    case 'obj':
      return `{${v.keys.map((k, i) => `${quoteJson(k)}: ${jsonText(v.vals[i]!)}`).join(', ')}}`;
    case 'arr':
      return `[${v.items.map(jsonText).join(', ')}]`;
    case 'str':
      return quoteJson(v.v);
    case 'num':
      return v.text;
    case 'bool':
      return v.v ? 'true' : 'false';
    case 'null':
      return 'null';
  }
}

/** JSON_TYPE's name of a node. */
export function jsonTypeName(v: JsonNode): string {
  switch (v.k) {
    case 'obj':
      return 'OBJECT';
    case 'arr':
      return 'ARRAY';
    case 'str':
      return 'STRING';
    case 'num':
      return /[.eE]/.test(v.text) ? 'DOUBLE' : 'INTEGER';
    case 'bool':
      return 'BOOLEAN';
    case 'null':
      return 'NULL';
  }
}

/** One step of a path: a member (null: `.*`), or an array element (-1: `[*]`). */
export type PathStep = { readonly member: string | null } | { readonly index: number };

export interface JsonPath {
  readonly steps: readonly PathStep[];
  /** The path has `.*` or `[*]`: it may match several values. */
  readonly wild: boolean;
}

/** Parses a JSON path; a fault's `pos` is the 1-based character where it stops making sense. */
export function parsePath(text: string): JsonPath | JsonFault {
  let i = 0;
  const n = text.length;
  const bad = (): JsonFault => ({ fault: 'syntax', pos: i + 1 });
  while (text[i] === ' ') i++;
  if (text[i] !== '$') return bad();
  i++;
  const steps: PathStep[] = [];
  let wild = false;
  while (i < n) {
    const c = text[i]!;
    if (c === ' ') {
      i++;
      continue;
    }
    if (c === '.') {
      i++;
      if (text[i] === '*') {
        steps.push({ member: null });
        wild = true;
        i++;
      } else if (text[i] === '"') {
        const end = text.indexOf('"', i + 1);
        if (end < 0) return bad();
        steps.push({ member: text.slice(i + 1, end) });
        i = end + 1;
      } else {
        const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(text.slice(i));
        if (m === null) return bad();
        steps.push({ member: m[0] });
        i += m[0].length;
      }
    } else if (c === '[') {
      const m = /^\[\s*(\*|\d+)\s*\]/.exec(text.slice(i));
      if (m === null) return bad();
      if (m[1] === '*') {
        steps.push({ index: -1 });
        wild = true;
      } else steps.push({ index: Number(m[1]) });
      i += m[0].length;
    } else return bad();
  }
  return { steps, wild };
}

/** The values `path` reaches in `doc`, in document order. */
export function pathValues(doc: JsonNode, path: JsonPath): JsonNode[] {
  let cur: JsonNode[] = [doc];
  for (const step of path.steps) {
    const next: JsonNode[] = [];
    for (const v of cur) {
      if ('member' in step) {
        if (v.k !== 'obj') continue;
        if (step.member === null) next.push(...v.vals);
        else {
          const k = v.keys.indexOf(step.member);
          if (k >= 0) next.push(v.vals[k]!);
        }
      } else if (v.k === 'arr') {
        if (step.index < 0) next.push(...v.items);
        else if (step.index < v.items.length) next.push(v.items[step.index]!);
      } else if (step.index === 0) next.push(v); // a scalar is an array of itself
    }
    cur = next;
  }
  return cur;
}

/** JSON_CONTAINS: whether `target` contains `cand` (MySQL's rules: members in objects, elements in arrays). */
export function jsonContains(target: JsonNode, cand: JsonNode): boolean {
  if (target.k === 'arr') {
    if (cand.k === 'arr') return cand.items.every((c) => jsonContains(target, c));
    return target.items.some((t) => jsonContains(t, cand));
  }
  if (target.k === 'obj') {
    if (cand.k !== 'obj') return false;
    return cand.keys.every((key, i) => {
      const k = target.keys.indexOf(key);
      return k >= 0 && jsonContains(target.vals[k]!, cand.vals[i]!);
    });
  }
  if (target.k !== cand.k) return false;
  if (target.k === 'num' && cand.k === 'num') return Number(target.text) === Number(cand.text);
  if (target.k === 'str' && cand.k === 'str') return target.v === cand.v;
  if (target.k === 'bool' && cand.k === 'bool') return target.v === cand.v;
  return target.k === 'null';
}

/** How JSON_SET, JSON_INSERT and JSON_REPLACE treat a path: add where missing, replace where found. */
export type JsonWrite = 'set' | 'insert' | 'replace';

/**
 * `doc` with the value at `steps` written as `mode` says (MySQL's rules): a found value is
 * replaced (set, replace); a missing member of an object is added, and a missing element past an
 * array's end appended (set, insert); a scalar read as an array (`$[1]` of `1`) becomes
 * `[scalar, value]`. Nothing else is created: a path through a missing value changes nothing.
 */
export function writePath(
  doc: JsonNode,
  steps: readonly PathStep[],
  value: JsonNode,
  mode: JsonWrite,
): JsonNode {
  if (steps.length === 0) return mode === 'insert' ? doc : value;
  const [step, ...rest] = steps as [PathStep, ...PathStep[]];
  if ('member' in step) {
    if (doc.k !== 'obj' || step.member === null) return doc;
    const k = doc.keys.indexOf(step.member);
    if (k >= 0) {
      const vals = [...doc.vals];
      vals[k] = writePath(doc.vals[k]!, rest, value, mode);
      return { k: 'obj', keys: doc.keys, vals };
    }
    if (rest.length > 0 || mode === 'replace') return doc;
    return { k: 'obj', keys: [...doc.keys, step.member], vals: [...doc.vals, value] };
  }
  const items = doc.k === 'arr' ? doc.items : [doc];
  if (step.index < items.length) {
    if (doc.k !== 'arr' && step.index === 0) return writePath(doc, rest, value, mode);
    const next = [...items];
    next[step.index] = writePath(items[step.index]!, rest, value, mode);
    return { k: 'arr', items: next };
  }
  if (rest.length > 0 || mode === 'replace') return doc;
  return { k: 'arr', items: [...items, value] };
}

/** `doc` without the value at `steps` (JSON_REMOVE); a missing one changes nothing. */
export function removePath(doc: JsonNode, steps: readonly PathStep[]): JsonNode {
  const [step, ...rest] = steps as [PathStep, ...PathStep[]];
  if ('member' in step) {
    if (doc.k !== 'obj' || step.member === null) return doc;
    const k = doc.keys.indexOf(step.member);
    if (k < 0) return doc;
    if (rest.length === 0)
      return { k: 'obj', keys: doc.keys.filter((_, i) => i !== k), vals: doc.vals.filter((_, i) => i !== k) };
    const vals = [...doc.vals];
    vals[k] = removePath(doc.vals[k]!, rest);
    return { k: 'obj', keys: doc.keys, vals };
  }
  if (doc.k !== 'arr' || step.index >= doc.items.length) return doc;
  if (rest.length === 0) return { k: 'arr', items: doc.items.filter((_, i) => i !== step.index) };
  const items = [...doc.items];
  items[step.index] = removePath(doc.items[step.index]!, rest);
  return { k: 'arr', items };
}

/** `doc` with `value` appended to the array at `steps` (a non-array there becomes `[it, value]`). */
export function appendPath(doc: JsonNode, steps: readonly PathStep[], value: JsonNode): JsonNode {
  if (steps.length === 0)
    return doc.k === 'arr' ? { k: 'arr', items: [...doc.items, value] } : { k: 'arr', items: [doc, value] };
  const [step, ...rest] = steps as [PathStep, ...PathStep[]];
  if ('member' in step) {
    if (doc.k !== 'obj' || step.member === null) return doc;
    const k = doc.keys.indexOf(step.member);
    if (k < 0) return doc;
    const vals = [...doc.vals];
    vals[k] = appendPath(doc.vals[k]!, rest, value);
    return { k: 'obj', keys: doc.keys, vals };
  }
  if (doc.k !== 'arr') return step.index === 0 ? appendPath(doc, rest, value) : doc;
  if (step.index >= doc.items.length) return doc;
  const items = [...doc.items];
  items[step.index] = appendPath(doc.items[step.index]!, rest, value);
  return { k: 'arr', items };
}

/** JSON_MERGE_PATCH of two documents (RFC 7396): members of `patch` replace, null removes. */
export function mergePatch(target: JsonNode, patch: JsonNode): JsonNode {
  if (patch.k !== 'obj') return patch;
  const keys = target.k === 'obj' ? [...target.keys] : [];
  const vals = target.k === 'obj' ? [...target.vals] : [];
  for (const [i, key] of patch.keys.entries()) {
    const p = patch.vals[i]!;
    const k = keys.indexOf(key);
    if (p.k === 'null') {
      if (k >= 0) {
        keys.splice(k, 1);
        vals.splice(k, 1);
      }
    } else if (k >= 0) vals[k] = mergePatch(vals[k]!, p);
    else {
      keys.push(key);
      vals.push(mergePatch({ k: 'null' }, p));
    }
  }
  return { k: 'obj', keys, vals };
}

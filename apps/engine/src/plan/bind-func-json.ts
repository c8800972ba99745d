import type { Bound } from '../exec/bound.js';
import {
  appendPath,
  isFault,
  type JsonFault,
  type JsonNode,
  type JsonPath,
  jsonContains,
  jsonText,
  jsonTypeName,
  mergePatch,
  parseJson,
  parsePath,
  pathValues,
  quoteJson,
  removePath,
  writePath,
} from '../exec/json.js';
import type { Ev } from '../exec/scope.js';
import { type SqlType, T_INT, T_STR } from '../exec/types.js';
import { SqlError } from '../sql/errors.js';
import { decText } from '../exec/decimal.js';
import { type BindCtx, castEv, mk, arity, textResultType } from './bind-expr.js';

/**
 * The JSON functions (MariaDB 10.11's): JSON_VALID, JSON_TYPE, JSON_EXTRACT, JSON_VALUE,
 * JSON_UNQUOTE, JSON_QUOTE, JSON_OBJECT, JSON_ARRAY, JSON_LENGTH, JSON_KEYS, JSON_CONTAINS,
 * JSON_CONTAINS_PATH, JSON_SET, JSON_INSERT, JSON_REPLACE, JSON_REMOVE, JSON_ARRAY_APPEND and
 * JSON_MERGE_PATCH. A document that is not JSON, or a path that is not a path, makes the
 * result NULL with MariaDB's warning (4037, 4038, 4042; a Note from JSON_VALID).
 */

/** A JSON document string (its results embed as JSON in JSON_OBJECT and JSON_ARRAY). */
const T_JSON: SqlType = { ...T_STR, json: true };

export function jsonFunction(name: string, args: Bound[], ctx: BindCtx, text: string): Bound | undefined {
  if (!name.startsWith('json_')) return undefined;
  const strs = (): Ev[] => args.map((a) => castEv(a, T_STR));
  /** The document of argument `k` (0-based), or null after its warning. */
  const doc = (s: string, k: number, level: 'Warning' | 'Note' = 'Warning'): JsonNode | null => {
    const d = parseJson(s);
    if (!isFault(d)) return d;
    warnDoc(ctx, d, k, name, level);
    return null;
  };
  const path = (s: string, k: number): JsonPath | null => {
    const p = parsePath(s);
    if (!isFault(p)) return p;
    ctx.env.warn(
      4042,
      `Syntax error in JSON path in argument ${k + 1} to function '${name}' at position ${p.pos}`,
    );
    return null;
  };
  /** `f` over the arguments as strings, NULL when any is NULL. */
  const over = (t: SqlType, f: (xs: string[]) => unknown): Bound => {
    const evs = strs();
    return mk(
      t,
      () => {
        const xs: string[] = [];
        for (const e of evs) {
          const x = e();
          if (x === null) return null;
          xs.push(x as string);
        }
        return f(xs);
      },
      args,
      text,
    );
  };
  switch (name) {
    case 'json_valid':
      arity(name, args, 1);
      return over(T_INT, ([s]) => (doc(s!, 0, 'Note') === null ? 0 : 1));
    case 'json_type':
      arity(name, args, 1);
      return over(T_STR, ([s]) => {
        const d = doc(s!, 0);
        return d === null ? null : jsonTypeName(d);
      });
    case 'json_extract':
      arity(name, args, 2, 1000);
      return over(T_JSON, ([s, ...ps]) => {
        const d = doc(s!, 0);
        if (d === null) return null;
        const paths: JsonPath[] = [];
        for (const [i, p] of ps.entries()) {
          const q = path(p, i + 1);
          if (q === null) return null;
          paths.push(q);
        }
        const found: JsonNode[] = [];
        for (const p of paths) found.push(...pathValues(d, p));
        if (found.length === 0) return null;
        if (paths.length === 1 && !paths[0]!.wild) return jsonText(found[0]!);
        return jsonText({ k: 'arr', items: found });
      });
    case 'json_value':
      arity(name, args, 2);
      return over(T_STR, ([s, p]) => {
        const d = doc(s!, 0);
        const q = d === null ? null : path(p!, 1);
        if (d === null || q === null) return null;
        const v = pathValues(d, q)[0];
        if (v === undefined) return null;
        switch (v.k) {
          case 'str':
            return v.v;
          case 'num':
            return v.text;
          case 'bool':
            return v.v ? 'true' : 'false';
          default:
            return null;
        }
      });
    case 'json_unquote':
      arity(name, args, 1);
      return over(T_STR, ([s]) => {
        if (s!.length >= 2 && s!.startsWith('"') && s!.endsWith('"')) {
          const d = parseJson(s!);
          if (!isFault(d) && d.k === 'str') return d.v;
        }
        return s;
      });
    case 'json_quote':
      arity(name, args, 1);
      return over(T_JSON, ([s]) => quoteJson(s!));
    case 'json_object':
    case 'json_array': {
      if (name === 'json_object' && args.length % 2 !== 0)
        throw new SqlError(
          'ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT',
          `Incorrect parameter count in the call to native function '${name}'`,
        );
      const keys =
        name === 'json_object' ? args.filter((_, i) => i % 2 === 0).map((a) => castEv(a, T_STR)) : [];
      const vals = name === 'json_object' ? args.filter((_, i) => i % 2 === 1) : args;
      const valueTexts = vals.map(jsonValueText);
      return mk(
        T_JSON,
        () => {
          const parts = valueTexts.map((f) => f());
          if (name === 'json_array') return `[${parts.join(', ')}]`;
          const out: string[] = [];
          for (const [i, k] of keys.entries()) {
            // a NULL name is the empty one, as MariaDB
            const key = k();
            out.push(`${quoteJson((key ?? '') as string)}: ${parts[i]!}`);
          }
          return `{${out.join(', ')}}`;
        },
        args,
        text,
      );
    }
    case 'json_length':
    case 'json_keys':
      arity(name, args, 1, 2);
      return over(name === 'json_length' ? T_INT : T_JSON, ([s, p]) => {
        const d = doc(s!, 0);
        if (d === null) return null;
        let v: JsonNode | undefined = d;
        if (p !== undefined) {
          const q = path(p, 1);
          if (q === null) return null;
          v = pathValues(d, q)[0];
        }
        if (v === undefined) return null;
        if (name === 'json_keys')
          return v.k === 'obj'
            ? jsonText({ k: 'arr', items: v.keys.map((x) => ({ k: 'str', v: x })) })
            : null;
        return v.k === 'obj' ? v.keys.length : v.k === 'arr' ? v.items.length : 1;
      });
    case 'json_contains':
      arity(name, args, 2, 3);
      return over(T_INT, ([s, c, p]) => {
        const d = doc(s!, 0);
        const cand = d === null ? null : doc(c!, 1);
        if (d === null || cand === null) return null;
        let target: JsonNode | undefined = d;
        if (p !== undefined) {
          const q = path(p, 2);
          if (q === null) return null;
          target = pathValues(d, q)[0];
        }
        if (target === undefined) return null;
        return jsonContains(target, cand) ? 1 : 0;
      });
    case 'json_contains_path':
      arity(name, args, 3, 1000);
      return over(T_INT, ([s, mode, ...ps]) => {
        const d = doc(s!, 0);
        if (d === null) return null;
        const m = mode!.toLowerCase();
        if (m !== 'one' && m !== 'all') return null;
        let hits = 0;
        for (const [i, p] of ps.entries()) {
          const q = path(p, i + 2);
          if (q === null) return null;
          if (pathValues(d, q).length > 0) hits++;
        }
        return m === 'one' ? (hits > 0 ? 1 : 0) : hits === ps.length ? 1 : 0;
      });
    case 'json_set':
    case 'json_insert':
    case 'json_replace':
    case 'json_array_append':
    case 'json_remove': {
      const remove = name === 'json_remove';
      if (remove ? args.length < 2 : args.length < 3 || args.length % 2 === 0)
        throw new SqlError(
          'ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT',
          `Incorrect parameter count in the call to native function '${name}'`,
        );
      const docEv = castEv(args[0]!, T_STR);
      // (path, value) pairs, or paths alone for JSON_REMOVE
      const step = remove ? 1 : 2;
      const edits: { k: number; path: Ev; value: (() => string) | null }[] = [];
      for (let k = 1; k < args.length; k += step)
        edits.push({ k, path: castEv(args[k]!, T_STR), value: remove ? null : jsonValueText(args[k + 1]!) });
      // a NULL document is a binary NULL, as MariaDB types it
      return mk(
        args[0]!.t.kind === 'null' ? textResultType([args[0]!]) : T_JSON,
        () => {
          const s = docEv();
          if (s === null) return null;
          let d = doc(s as string, 0);
          if (d === null) return null;
          for (const e of edits) {
            const p = e.path();
            if (p === null) return null;
            const q = path(p as string, e.k);
            if (q === null) return null;
            if (q.wild) {
              ctx.env.warn(
                4044,
                `Wildcards or range in JSON path not allowed in argument ${e.k + 1} to function '${name}'`,
              );
              return null;
            }
            if (remove && q.steps.length === 0) {
              ctx.env.warn(
                4051,
                `Path expression '$' is not allowed in argument ${e.k + 1} to function '${name}'.`,
              );
              return null;
            }
            if (e.value === null) d = removePath(d, q.steps);
            else {
              const v = parseJson(e.value()) as JsonNode;
              d =
                name === 'json_array_append'
                  ? appendPath(d, q.steps, v)
                  : writePath(
                      d,
                      q.steps,
                      v,
                      name === 'json_set' ? 'set' : name === 'json_insert' ? 'insert' : 'replace',
                    );
            }
          }
          return jsonText(d);
        },
        args,
        text,
      );
    }
    case 'json_merge_patch':
      arity(name, args, 2, 1000);
      return over(T_JSON, (xs) => {
        let d: JsonNode | null = null;
        for (const [k, x] of xs.entries()) {
          const next = doc(x, k);
          if (next === null) return null;
          d = d === null ? next : mergePatch(d, next);
        }
        return jsonText(d!);
      });
    default:
      return undefined;
  }
}

/** A SQL value as a JSON value's text in JSON_OBJECT and JSON_ARRAY. */
function jsonValueText(b: Bound): () => string {
  const t = b.t;
  const ev = b.ev;
  if (t.kind === 'int' && t.bool === true)
    return () => {
      const x = ev();
      return x === null ? 'null' : x === 1 ? 'true' : x === 0 ? 'false' : String(x);
    };
  if (t.kind === 'int') return () => (ev() === null ? 'null' : String(ev()));
  if (t.kind === 'dec')
    return () => {
      const x = ev();
      return x === null ? 'null' : decText(x as bigint, t.iscale, t.scale);
    };
  if (t.kind === 'dbl')
    return () => {
      const x = ev();
      return x === null ? 'null' : String(x);
    };
  const s = castEv(b, T_STR);
  if (t.json === true)
    return () => {
      const x = s();
      return x === null ? 'null' : (x as string);
    };
  return () => {
    const x = s();
    return x === null ? 'null' : quoteJson(x as string);
  };
}

function warnDoc(ctx: BindCtx, f: JsonFault, k: number, name: string, level: 'Warning' | 'Note'): void {
  if (f.fault === 'end')
    ctx.env.warn(4037, `Unexpected end of JSON text in argument ${k + 1} to function '${name}'`, level);
  else
    ctx.env.warn(
      4038,
      `Syntax error in JSON text in argument ${k + 1} to function '${name}' at position ${f.pos}`,
      level,
    );
}

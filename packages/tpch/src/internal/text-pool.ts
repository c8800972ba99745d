import {
  adjectives,
  adverbs,
  articles,
  auxiliaries,
  type Distribution,
  grammar,
  nounPhrases,
  nouns,
  prepositions,
  terminators,
  verbPhrases,
  verbs,
} from './dists.js';
import { STREAM_TABLE, Stream } from './streams.js';

/** dbgen's TEXT_POOL_SIZE (`text.c`, 2.4 and later): 300 MiB of pseudo-text. */
export const TEXT_POOL_SIZE: number = 300 * 1024 * 1024;

const M = 2147483647;
const A = 16807;

/** A word list flattened for the hot loop: all words' bytes back to back, with offsets. */
interface Words {
  readonly total: number;
  /** `pick_str` as a table: draw j in [1, total] → member index (totals are a few hundred). */
  readonly index: Uint8Array;
  readonly bytes: Uint8Array;
  readonly start: Int32Array;
}

function words(d: Distribution): Words {
  const encoded = d.words.map((w) => Buffer.from(w, 'latin1'));
  const start = new Int32Array(encoded.length + 1);
  for (let i = 0; i < encoded.length; i++) start[i + 1] = start[i]! + encoded[i]!.length;
  return { total: d.total, index: pickTable(d), bytes: new Uint8Array(Buffer.concat(encoded)), start };
}

function pickTable(d: Distribution): Uint8Array {
  const t = new Uint8Array(d.total + 1);
  let i = 0;
  for (let j = 1; j <= d.total; j++) {
    while (d.cumulative[i]! < j) i++;
    t[j] = i;
  }
  return t;
}

/** One Park–Miller step without `%`: the quotient of a product < 2^46 by M is never within 2^-31 of an integer from below, so its floor is exact. */
function step(seed: number): number {
  const t = seed * A;
  return t - Math.floor(t / M) * M;
}

// Phrase-form tokens, compiled to small integers: which word list, and a punctuation byte or 0.
const LISTS = 'NVJDAX';

function compileForms(d: Distribution): Int32Array[] {
  return d.words.map((form) =>
    Int32Array.from(
      form.split(' ').flatMap((tok) => [LISTS.indexOf(tok[0]!), tok.length > 1 ? tok.charCodeAt(1) : 0]),
    ),
  );
}

/**
 * Builds dbgen's text pool: sentences from the comment grammar (`text.c`: `txt_sentence`,
 * `txt_np`, `txt_vp`), each followed by one space, drawn from stream 5 (seed 933588178) until
 * `size` bytes are filled; the last sentence is cut to fit. Every comment column is a slice of
 * this pool at a random offset (`dbg_text`), so the whole pool must match dbgen byte for byte.
 *
 * A sentence form (`grammar`) is a list of N (noun phrase), V (verb phrase), P (preposition,
 * " the ", noun phrase) and T (terminator, which replaces the space after the previous word).
 * A phrase form lists parts of speech, each written as a word, an optional punctuation mark
 * (the `J,` of `J, J N`) and a space. Every choice is one `pick_str` draw, in reading order.
 *
 * Hot loop: the Park–Miller step is inlined on a local double seed and `pick_str` is a table.
 */
export function buildTextPool(size: number = TEXT_POOL_SIZE): Uint8Array {
  if (!Number.isInteger(size) || size < 1) {
    throw new RangeError(`size must be a positive integer, got ${size}`);
  }
  const pool = new Uint8Array(size);
  const sentence = new Uint8Array(512);
  const gram = grammar.words.map((w) => Int32Array.from(w.split(' '), (t) => 'NVPT'.indexOf(t)));
  const npForms = compileForms(nounPhrases);
  const vpForms = compileForms(verbPhrases);
  const lists = [
    words(nouns),
    words(verbs),
    words(adjectives),
    words(adverbs),
    words(articles),
    words(auxiliaries),
  ];
  const P = words(prepositions);
  const T = words(terminators);

  let seed = STREAM_TABLE[Stream.textPool]![1];
  // Sentences are built straight into the pool while a whole one surely fits (< 512 bytes);
  // near the end into `sentence`, to cut the last one as dbgen does.
  let out = pool;
  let len = 0;
  // pick_str on the pool's stream, then append the chosen word
  const putWord = (w: Words): void => {
    seed = step(seed);
    const i = w.index[1 + Math.trunc((seed / M) * w.total)]!;
    const b = w.bytes;
    for (let k = w.start[i]!, e = w.start[i + 1]!; k < e; k++) out[len++] = b[k]!;
  };
  const gramPick = pickTable(grammar);
  const npPick = pickTable(nounPhrases);
  const vpPick = pickTable(verbPhrases);
  const pickForm = (table: Uint8Array, total: number): number => {
    seed = step(seed);
    return table[1 + Math.trunc((seed / M) * total)]!;
  };
  const phrase = (forms: Int32Array[], table: Uint8Array, total: number): void => {
    const form = forms[pickForm(table, total)]!;
    for (let k = 0; k < form.length; k += 2) {
      putWord(lists[form[k]!]!);
      const punct = form[k + 1]!;
      if (punct !== 0) out[len++] = punct;
      out[len++] = 0x20;
    }
  };

  let filled = 0;
  while (filled < size) {
    const direct = size - filled > sentence.length;
    out = direct ? pool : sentence;
    len = direct ? filled : 0;
    const form = gram[pickForm(gramPick, grammar.total)]!;
    for (let k = 0; k < form.length; k++) {
      switch (form[k]) {
        case 0:
          phrase(npForms, npPick, nounPhrases.total);
          break;
        case 1:
          phrase(vpForms, vpPick, verbPhrases.total);
          break;
        case 2:
          putWord(P);
          for (let t = 0; t < THE.length; t++) out[len++] = THE[t]!;
          phrase(npForms, npPick, nounPhrases.total);
          break;
        default:
          len--;
          putWord(T);
      }
    }
    if (direct) {
      pool[len] = 0x20; // the space after the sentence
      filled = len + 1;
      continue;
    }
    const need = size - filled;
    if (need >= len + 1) {
      for (let k = 0; k < len; k++) pool[filled + k] = sentence[k]!;
      pool[filled + len] = 0x20;
      filled += len + 1;
    } else {
      for (let k = 0; k < need; k++) pool[filled + k] = sentence[k]!;
      filled += need;
    }
  }
  return pool;
}

const THE = new Uint8Array([0x20, 0x74, 0x68, 0x65, 0x20]); // " the "

let shared: Uint8Array | undefined;

/** The full-size pool, built once per process (about 300 MiB; a few seconds). */
export function textPool(): Uint8Array {
  shared ??= buildTextPool();
  return shared;
}

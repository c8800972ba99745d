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

interface Words {
  readonly cumulative: Int32Array;
  readonly total: number;
  readonly bytes: Uint8Array[];
}

function words(d: Distribution): Words {
  return {
    cumulative: d.cumulative,
    total: d.total,
    bytes: d.words.map((w) => new Uint8Array(Buffer.from(w, 'latin1'))),
  };
}

/**
 * Builds dbgen's text pool: sentences from the comment grammar (`text.c`: `txt_sentence`,
 * `txt_np`, `txt_vp`), each followed by one space, drawn from stream 5 (seed 933588178) until
 * `size` bytes are filled; the last sentence is cut to fit. Every comment column is a slice of
 * this pool at a random offset (`dbg_text`), so the whole pool must match dbgen byte for byte.
 *
 * Hot loop: the Park–Miller step and `pick_str` are inlined on a local double seed.
 */
export function buildTextPool(size: number = TEXT_POOL_SIZE): Uint8Array {
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError(`size must be a positive integer, got ${size}`);
  const pool = new Uint8Array(size);
  const sentence = new Uint8Array(512);
  const gram = grammar.words.map((w) => w.split(' '));
  const npForms = nounPhrases.words.map((w) => w.split(' '));
  const vpForms = verbPhrases.words.map((w) => w.split(' '));
  const N = words(nouns);
  const V = words(verbs);
  const J = words(adjectives);
  const D = words(adverbs);
  const Art = words(articles);
  const P = words(prepositions);
  const X = words(auxiliaries);
  const T = words(terminators);
  const byLetter: Record<string, Words> = { N, V, J, D, A: Art, X };

  let seed = STREAM_TABLE[Stream.textPool]![1];
  const pick = (cumulative: Int32Array, total: number): number => {
    seed = (seed * A) % M;
    const j = 1 + Math.trunc((seed / M) * total);
    let i = 0;
    while (cumulative[i]! < j) i++;
    return i;
  };
  let len = 0;
  const put = (b: Uint8Array): void => {
    sentence.set(b, len);
    len += b.length;
  };
  // A phrase: each part of speech, then its punctuation if any, then a space.
  const phrase = (forms: string[][], dist: Distribution): void => {
    const form = forms[pick(dist.cumulative, dist.total)]!;
    for (const token of form) {
      const w = byLetter[token[0]!]!;
      put(w.bytes[pick(w.cumulative, w.total)]!);
      if (token.length > 1) sentence[len++] = token.charCodeAt(1);
      sentence[len++] = 0x20;
    }
  };

  let filled = 0;
  while (filled < size) {
    len = 0;
    const form = gram[pick(grammar.cumulative, grammar.total)]!;
    for (const part of form) {
      switch (part) {
        case 'N':
          phrase(npForms, nounPhrases);
          break;
        case 'V':
          phrase(vpForms, verbPhrases);
          break;
        case 'P':
          put(P.bytes[pick(P.cumulative, P.total)]!);
          sentence.set(THE, len);
          len += THE.length;
          phrase(npForms, nounPhrases);
          break;
        case 'T':
          // the terminator replaces the space after the previous word
          len--;
          put(T.bytes[pick(T.cumulative, T.total)]!);
          break;
      }
    }
    const need = size - filled;
    if (need >= len + 1) {
      pool.set(sentence.subarray(0, len), filled);
      pool[filled + len] = 0x20;
      filled += len + 1;
    } else {
      pool.set(sentence.subarray(0, need), filled);
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

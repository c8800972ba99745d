import type { GeneratorName } from './types.js';
import { createGenerator, generatorNames, legacyGeneratorNames } from './create.js';
import { InnodbPageRnd } from './generators/innodb-page-rnd.js';

/**
 * The bug story in numbers (MySQL bug #43660), as text: which of 3 records 8 "random" dives pick
 * with each generator, how often each record is picked over many dives, and the residue table of
 * `page_rnd` with 32- and 64-bit words showing where the 32-bit word first wraps.
 */
export function bugStory(): string {
  const out: string[] = [];
  out.push('MySQL bug #43660: ANALYZE TABLE sampled the same index page every time.');
  out.push(
    'A root page with 3 node pointers, tree height 2: each of the 8 dives picks one of the 3 records.',
  );
  out.push('');
  out.push('8 dives, record picked (0-based) per generator:');
  const seeds: Partial<Record<GeneratorName, number>> = { 'innodb-lcg64': 1 };
  for (const name of generatorNames) {
    const legacy = legacyGeneratorNames.includes(name);
    const gen = createGenerator(
      name,
      legacy ? { ...(seeds[name] !== undefined ? { seed: seeds[name] } : {}) } : { seed: 42 },
    );
    const picks = Array.from({ length: 8 }, () => gen.nextBelow(3));
    out.push(`  ${name.padEnd(16)} ${picks.join(' ')}   distinct leaves: ${new Set(picks).size}`);
  }
  out.push('');
  out.push('10,000 dives among 3 records: how often each record is chosen');
  for (const name of generatorNames) {
    const legacy = legacyGeneratorNames.includes(name);
    const gen = createGenerator(
      name,
      legacy ? { ...(seeds[name] !== undefined ? { seed: seeds[name] } : {}) } : { seed: 42 },
    );
    const counts = [0, 0, 0];
    for (let i = 0; i < 10_000; i++) counts[gen.nextBelow(3)]! += 1;
    out.push(`  ${name.padEnd(16)} ${counts.map((c) => String(c).padStart(6)).join('')}`);
  }
  out.push('');
  out.push('page_rnd = 976722341 + k·87584577: residue mod 3 per call k');
  const w32 = new InnodbPageRnd({ wordBits: 32 });
  const w64 = new InnodbPageRnd({ wordBits: 64 });
  out.push('   k  page_rnd (32-bit)  %3 | page_rnd (64-bit)  %3');
  for (let k = 1; k <= 40; k++) {
    const a = w32.nextWord();
    const b = w64.nextWord();
    if (k <= 3 || (k >= 36 && k <= 39)) {
      out.push(
        `  ${String(k).padStart(2)}  ${String(a).padStart(16)}  ${a % 3n} | ${String(b).padStart(16)}  ${b % 3n}`,
      );
    } else if (k === 4) out.push('  ..');
  }
  out.push('With 32-bit words the residue first changes at call 38 (the word wraps past 2^32);');
  out.push('with 64-bit words the first wrap is ~2.1e11 calls away, so the third record is chosen forever.');
  out.push('The fix (page_cur_lcg_prng, innodb-lcg64) and any modern generator reach all three records.');
  return out.join('\n');
}

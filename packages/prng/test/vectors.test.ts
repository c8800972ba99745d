// Reference vectors: outputs of the authors' reference C code (splitmix64.c, xoshiro256starstar.c,
// xoshiro128starstar.c, pcg_basic.c), of InnoDB's ut0rnd / page0cur arithmetic and of dbgen's
// rnd.c, compiled with gcc and printed; only the numbers are kept here.
import { describe, expect, it } from 'vitest';
import {
  createGenerator,
  InnodbLcg64,
  InnodbPageRnd,
  InnodbUtRnd,
  ParkMiller,
  Pcg32,
  SplitMix64,
  Xoshiro128StarStar,
  Xoshiro256StarStar,
} from '../src/index.js';

const take = <T>(n: number, f: () => T): T[] => Array.from({ length: n }, f);

describe('splitmix64', () => {
  it('matches splitmix64.c from seed 1234567', () => {
    const g = new SplitMix64({ seed: 1234567 });
    expect(take(6, () => g.nextBigUint64())).toEqual([
      6457827717110365317n,
      3203168211198807973n,
      9817491932198370423n,
      4593380528125082431n,
      16408922859458223821n,
      7804594928223864054n,
    ]);
  });
  it('matches from seed 0, and nextUint32 is the high word', () => {
    const g = new SplitMix64({ seed: 0 });
    expect(g.nextBigUint64()).toBe(16294208416658607535n);
    const h = new SplitMix64({ seed: 0 });
    h.nextUint32();
    expect(h.nextUint32()).toBe(Number(7960286522194355700n >> 32n));
  });
});

describe('xoshiro256**', () => {
  it('matches xoshiro256starstar.c from state {1,2,3,4}, then after jump()', () => {
    const g = new Xoshiro256StarStar({ state: [1n, 2n, 3n, 4n] });
    expect(take(6, () => g.nextBigUint64())).toEqual([
      11520n,
      0n,
      1509978240n,
      1215971899390074240n,
      1216172134540287360n,
      607988272756665600n,
    ]);
    g.jump();
    expect(take(3, () => g.nextBigUint64())).toEqual([
      5426983283421486391n,
      11862457687714050616n,
      11560836193490265043n,
    ]);
  });
  it('seeds through SplitMix64', () => {
    const g = new Xoshiro256StarStar({ seed: 42 });
    expect(take(4, () => g.nextBigUint64())).toEqual([
      1546998764402558742n,
      6990951692964543102n,
      12544586762248559009n,
      17057574109182124193n,
    ]);
    const h = new Xoshiro256StarStar({ seed: 42 });
    expect(h.nextUint32()).toBe(Number(1546998764402558742n >> 32n));
  });
});

describe('xoshiro128**', () => {
  it('matches xoshiro128starstar.c from state {1,2,3,4}, then after jump()', () => {
    const g = new Xoshiro128StarStar({ state: [1, 2, 3, 4] });
    expect(take(6, () => g.nextUint32())).toEqual([11520, 0, 5927040, 70819200, 2031721883, 1637235492]);
    g.jump();
    expect(take(3, () => g.nextUint32())).toEqual([2327035934, 1140626159, 913312880]);
  });
  it('seeds through SplitMix64 (low half, high half of two outputs)', () => {
    const g = new Xoshiro128StarStar({ seed: 42 });
    expect(take(4, () => g.nextUint32())).toEqual([1776835114, 4165204688, 17111135, 2317295270]);
  });
});

describe('pcg32', () => {
  it('matches pcg32-demo with pcg32_srandom_r(42, 54)', () => {
    const g = new Pcg32({ seed: 42n, stream: 54n });
    expect(take(6, () => g.nextUint32())).toEqual([
      0xa15c02b7, 0x7b47f409, 0xba1d3330, 0x83d2f293, 0xbfa4784b, 0xcbed606e,
    ]);
  });
});

describe('park-miller (dbgen NextRand)', () => {
  it('gives the minimal-standard check value 1043618065 after 10,000 steps from 1', () => {
    const g = new ParkMiller({ seed: 1 });
    expect(take(5, () => g.nextRaw())).toEqual([16807, 282475249, 1622650073, 984943658, 1144108930]);
    for (let i = 5; i < 10_000; i++) g.nextRaw();
    expect(g.seed).toBe(1043618065);
  });
  it('skip(n) equals n steps', () => {
    const a = new ParkMiller({ seed: 1 });
    a.skip(10_000);
    expect(a.seed).toBe(1043618065);
  });
  it('unifInt is dbgen UnifInt arithmetic', () => {
    const g = new ParkMiller({ seed: 1 });
    // 16807 / 2147483647 * 100 -> 0.00078..., trunc -> 0, + low
    expect(g.unifInt(1, 100)).toBe(1);
    // 282475249 / M * 100 = 13.15 -> 13, + low
    expect(g.unifInt(1, 100)).toBe(14);
  });
});

describe('innodb-ut-rnd', () => {
  it('32-bit words from the server-start counter', () => {
    const g = new InnodbUtRnd({ wordBits: 32 });
    expect(take(8, () => g.nextWord())).toEqual(
      [3835806949, 120493143, 1318316081, 52713059, 1915121676, 2591882325, 3308626286, 1992675570].map(
        BigInt,
      ),
    );
  });
  it('64-bit words from the server-start counter', () => {
    const g = new InnodbUtRnd({ wordBits: 64 });
    expect(take(8, () => g.nextWord())).toEqual([
      3651272581484040374n,
      567703251505207880n,
      7647278186624333935n,
      12203251353099693242n,
      1563628522320732234n,
      6416171194031751695n,
      8137657663580461230n,
      5769720470366197839n,
    ]);
  });
  it('ut_rnd_interval: 5.1 is rnd % n, 5.5 is rnd % (n - 1), n = 1 makes no call', () => {
    const a = new InnodbUtRnd({ wordBits: 32 });
    expect(a.nextBelow(10)).toBe(3835806949 % 10);
    const b = new InnodbUtRnd({ wordBits: 32, intervalVariant: '5.5' });
    expect(b.nextBelow(10)).toBe(3835806949 % 9);
    expect(b.nextBelow(1)).toBe(0);
    expect(b.nextWord()).toBe(120493143n); // nextBelow(1) consumed nothing
    const c = new InnodbUtRnd({ wordBits: 32, intervalVariant: '5.5' });
    for (let i = 0; i < 1000; i++) expect(c.nextBelow(4)).toBeLessThan(3);
  });
});

describe('innodb-page-rnd', () => {
  it('follows 976722341 + k * 87584577', () => {
    const g = new InnodbPageRnd({ wordBits: 64 });
    expect(take(8, () => g.nextWord())).toEqual(
      [1064306918, 1151891495, 1239476072, 1327060649, 1414645226, 1502229803, 1589814380, 1677398957].map(
        BigInt,
      ),
    );
  });
  it('picks the documented records among 3, 4, 5 and 7', () => {
    const pick = (n: number) => {
      const g = new InnodbPageRnd();
      return take(8, () => g.nextBelow(n));
    };
    expect(pick(3)).toEqual([2, 2, 2, 2, 2, 2, 2, 2]);
    expect(pick(4)).toEqual([2, 3, 0, 1, 2, 3, 0, 1]);
    expect(pick(5)).toEqual([3, 0, 2, 4, 1, 3, 0, 2]);
    expect(pick(7)).toEqual([3, 6, 2, 5, 1, 4, 0, 3]);
  });
  it('with 32-bit words stays 2 mod 3 for 37 calls and changes at call 38 (value 9968971)', () => {
    const g = new InnodbPageRnd({ wordBits: 32 });
    const residues = take(40, () => g.nextBelow(3));
    expect(residues.slice(0, 37).every((r) => r === 2)).toBe(true);
    expect(residues[37]).toBe(1);
    const h = new InnodbPageRnd({ wordBits: 32 });
    const words = take(38, () => h.nextWord());
    expect(words[37]).toBe(9968971n);
  });
  it('with 64-bit words the residue is still 2 after a million calls', () => {
    const g = new InnodbPageRnd({ wordBits: 64 });
    let other = 0;
    for (let i = 0; i < 1_000_000; i++) if (g.nextBelow(3) !== 2) other++;
    expect(other).toBe(0);
  });
});

describe('innodb-lcg64 (page_cur_lcg_prng)', () => {
  it('matches the C LCG from X0 = 0 (first output a*X0 + c)', () => {
    const g = new InnodbLcg64({ seed: 0 });
    expect(take(6, () => g.nextWord())).toEqual([
      12345n,
      13622895711870n,
      17423423094097455071n,
      9039786828775103532n,
      12744206516323260149n,
      11820541280853630090n,
    ]);
  });
  it('nextBelow is X % n on the full word', () => {
    const g = new InnodbLcg64({ seed: 1 });
    expect(take(8, () => g.nextBelow(7))).toEqual([4, 4, 0, 0, 3, 1, 3, 5]);
  });
  it('shows the weak low bit: X % 2 alternates', () => {
    const g = createGenerator('innodb-lcg64', { seed: 12345 });
    const bits = take(16, () => g.nextBelow(2));
    for (let i = 1; i < bits.length; i++) expect(bits[i]).not.toBe(bits[i - 1]);
  });
  it('is seeded from the clock in microseconds when no seed is given', () => {
    // the generator reads performance's clock (timeOrigin + now), which drifts from Date.now() by
    // a few microseconds: bound it by the same clock
    const micros = (): bigint => BigInt(Math.floor((performance.timeOrigin + performance.now()) * 1000));
    const before = micros();
    const g = new InnodbLcg64();
    const after = micros() + 1000n;
    expect(g.state).toBeGreaterThanOrEqual(before - 1000n);
    expect(g.state).toBeLessThanOrEqual(after);
  });
});

// The protocol's basic types: length-encoded integers at each width boundary, frames of 16 MiB
// and more split as the protocol says (a payload of exactly 2^24 - 1 bytes is followed by an
// empty frame), and readers that refuse to read past a packet's end.
import { describe, expect, it } from 'vitest';
import { MalformedPacketError, PacketReader, PacketWriter } from '../../src/server/wire.js';

describe('length-encoded integers', () => {
  it('use 1, 3, 4 or 9 bytes at the boundaries', () => {
    const cases: [number, string][] = [
      [0, '00'],
      [250, 'fa'],
      [251, 'fcfb00'],
      [65535, 'fcffff'],
      [65536, 'fd000001'],
      [16777215, 'fdffffff'],
      [16777216, 'fe0000000100000000'],
    ];
    for (const [n, hex] of cases) {
      const w = new PacketWriter(4).reset(0);
      w.lenenc(n);
      expect(w.take().toString('hex'), String(n)).toBe(hex);
      const r = new PacketReader(Buffer.from(hex, 'hex'));
      if (n < 16777216) expect(r.lenenc()).toBe(n);
    }
  });

  it('refuse NULL (0xfb), 0xff, and lengths past the end', () => {
    expect(() => new PacketReader(Buffer.from('fb', 'hex')).lenenc()).toThrow(MalformedPacketError);
    expect(() => new PacketReader(Buffer.from('ff', 'hex')).lenenc()).toThrow(MalformedPacketError);
    expect(() => new PacketReader(Buffer.from('fc01', 'hex')).lenenc()).toThrow(MalformedPacketError);
    expect(() => new PacketReader(Buffer.from('05616263', 'hex')).lenencBytes()).toThrow(
      MalformedPacketError,
    );
    expect(() => new PacketReader(Buffer.from('fe00000000000000ff', 'hex')).lenenc()).toThrow(
      MalformedPacketError,
    );
    expect(() => new PacketReader(Buffer.from('616263', 'hex')).nulBytes()).toThrow(MalformedPacketError);
  });
});

describe('frames', () => {
  const MAX = 0xffffff;

  function frames(b: Buffer): { len: number; seq: number; first: number }[] {
    const out: { len: number; seq: number; first: number }[] = [];
    for (let i = 0; i < b.length; ) {
      const len = b.readUIntLE(i, 3);
      out.push({ len, seq: b[i + 3]!, first: len > 0 ? b[i + 4]! : -1 });
      i += 4 + len;
    }
    return out;
  }

  it('split a long payload into 2^24 - 1 byte frames with consecutive sequence ids', () => {
    const w = new PacketWriter(16).reset(5);
    w.begin().bytes(Buffer.alloc(MAX, 1)).bytes(Buffer.alloc(10, 2)).end();
    w.begin().u8(7).end();
    const f = frames(w.take());
    expect(f).toEqual([
      { len: MAX, seq: 5, first: 1 },
      { len: 10, seq: 6, first: 2 },
      { len: 1, seq: 7, first: 7 },
    ]);
  });

  it('follow a payload of exactly 2^24 - 1 bytes with an empty frame', () => {
    const w = new PacketWriter(16).reset(255);
    w.begin().bytes(Buffer.alloc(MAX, 3)).end();
    const f = frames(w.take());
    expect(f).toEqual([
      { len: MAX, seq: 255, first: 3 },
      { len: 0, seq: 0, first: -1 },
    ]);
  });

  it('write length-encoded strings of every length class in UTF-8', () => {
    for (const s of ['', 'a', 'é'.repeat(83), 'é'.repeat(84), 'x'.repeat(300), '🙂'.repeat(20000)]) {
      const w = new PacketWriter(8).reset(0);
      w.lenencStr(s);
      const r = new PacketReader(w.take());
      expect(r.lenencBytes().toString('utf8')).toBe(s);
      expect(r.remaining).toBe(0);
    }
  });
});

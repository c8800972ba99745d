/**
 * Reading and writing the protocol's basic types: fixed little-endian integers, length-encoded
 * integers and strings, NUL-terminated strings. A reader never reads past its end: a short packet
 * is a {@link MalformedPacketError}, which closes the connection that sent it.
 */
import { SERVER_STATUS_AUTOCOMMIT } from './protocol.js';

/** A client packet that cannot be parsed (truncated, or a length beyond its end). */
export class MalformedPacketError extends Error {
  override readonly name = 'MalformedPacketError';
}

export class PacketReader {
  readonly buf: Buffer;
  pos: number;
  readonly end: number;

  constructor(buf: Buffer, pos = 0, end: number = buf.length) {
    this.buf = buf;
    this.pos = pos;
    this.end = end;
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  #need(n: number): void {
    if (n < 0 || this.pos + n > this.end) throw new MalformedPacketError('Malformed communication packet.');
  }

  u8(): number {
    this.#need(1);
    return this.buf[this.pos++]!;
  }

  u16(): number {
    this.#need(2);
    const v = this.buf.readUInt16LE(this.pos);
    this.pos += 2;
    return v;
  }

  u32(): number {
    this.#need(4);
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }

  i64(): bigint {
    this.#need(8);
    const v = this.buf.readBigInt64LE(this.pos);
    this.pos += 8;
    return v;
  }

  u64(): bigint {
    this.#need(8);
    const v = this.buf.readBigUInt64LE(this.pos);
    this.pos += 8;
    return v;
  }

  f32(): number {
    this.#need(4);
    const v = this.buf.readFloatLE(this.pos);
    this.pos += 4;
    return v;
  }

  f64(): number {
    this.#need(8);
    const v = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }

  /** A length-encoded integer (0xfb, NULL, is not valid here). */
  lenenc(): number {
    const b = this.u8();
    if (b < 0xfb) return b;
    if (b === 0xfc) return this.u16();
    if (b === 0xfd) {
      this.#need(3);
      const v = this.buf.readUIntLE(this.pos, 3);
      this.pos += 3;
      return v;
    }
    if (b === 0xfe) {
      const v = this.u64();
      if (v > BigInt(this.end)) throw new MalformedPacketError('Malformed communication packet.');
      return Number(v);
    }
    throw new MalformedPacketError('Malformed communication packet.');
  }

  bytes(n: number): Buffer {
    this.#need(n);
    const v = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  lenencBytes(): Buffer {
    return this.bytes(this.lenenc());
  }

  /** Bytes up to a NUL (which is consumed). */
  nulBytes(): Buffer {
    const i = this.buf.indexOf(0, this.pos);
    if (i < 0 || i >= this.end) throw new MalformedPacketError('Malformed communication packet.');
    const v = this.buf.subarray(this.pos, i);
    this.pos = i + 1;
    return v;
  }

  /** The rest of the packet. */
  rest(): Buffer {
    const v = this.buf.subarray(this.pos, this.end);
    this.pos = this.end;
    return v;
  }
}

/** Bytes a length-encoded integer takes. */
export function lenencSize(n: number): number {
  return n < 0xfb ? 1 : n < 0x10000 ? 3 : n < 0x1000000 ? 4 : 9;
}

/** The largest payload one frame carries; a longer packet continues in further frames. */
const MAX_FRAME = 0xffffff;

/**
 * Builds a reply: one or more packets, each framed (3-byte length, sequence id) as it is ended,
 * into one growing buffer the connection sends with a single write. `begin()` opens a packet,
 * `end()` closes it; a payload of 16 MiB or more is split into frames as the protocol says.
 */
/** Autocommit on, no transaction open: the state of a connection that has run nothing yet. */
const defaultStatus = (): number => SERVER_STATUS_AUTOCOMMIT;

export class PacketWriter {
  buf: Buffer;
  pos = 0;
  /** Sequence id of the next frame. */
  seq = 1;
  #start = 0;
  /** The server status bits OK and EOF packets carry, read when each is written. */
  serverStatus: () => number = defaultStatus;

  constructor(size = 1024) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /** Starts a reply whose first frame has sequence id `seq`. */
  reset(seq: number): this {
    this.pos = 0;
    this.seq = seq & 0xff;
    return this;
  }

  begin(): this {
    this.ensure(4);
    this.#start = this.pos;
    this.pos += 4;
    return this;
  }

  end(): this {
    let start = this.#start;
    let len = this.pos - start - 4;
    while (len >= MAX_FRAME) {
      // a full frame, then make room for the next frame's header
      this.buf.writeUIntLE(MAX_FRAME, start, 3);
      this.buf[start + 3] = this.seq;
      this.seq = (this.seq + 1) & 0xff;
      const next = start + 4 + MAX_FRAME;
      this.ensure(4);
      this.buf.copyWithin(next + 4, next, this.pos);
      this.pos += 4;
      start = next;
      len -= MAX_FRAME;
    }
    this.buf.writeUIntLE(len, start, 3);
    this.buf[start + 3] = this.seq;
    this.seq = (this.seq + 1) & 0xff;
    return this;
  }

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  u8(v: number): this {
    this.ensure(1);
    this.buf[this.pos++] = v;
    return this;
  }

  u16(v: number): this {
    this.ensure(2);
    this.buf.writeUInt16LE(v, this.pos);
    this.pos += 2;
    return this;
  }

  u32(v: number): this {
    this.ensure(4);
    this.buf.writeUInt32LE(v >>> 0, this.pos);
    this.pos += 4;
    return this;
  }

  i64(v: bigint): this {
    this.ensure(8);
    this.buf.writeBigInt64LE(v, this.pos);
    this.pos += 8;
    return this;
  }

  f64(v: number): this {
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
    return this;
  }

  zeros(n: number): this {
    this.ensure(n);
    this.buf.fill(0, this.pos, this.pos + n);
    this.pos += n;
    return this;
  }

  lenenc(n: number): this {
    if (n < 0xfb) return this.u8(n);
    if (n < 0x10000) return this.u8(0xfc).u16(n);
    if (n < 0x1000000) {
      this.ensure(4);
      this.buf[this.pos++] = 0xfd;
      this.buf.writeUIntLE(n, this.pos, 3);
      this.pos += 3;
      return this;
    }
    this.u8(0xfe);
    this.ensure(8);
    this.buf.writeBigUInt64LE(BigInt(n), this.pos);
    this.pos += 8;
    return this;
  }

  bytes(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
    return this;
  }

  /** A string as UTF-8, without length. */
  str(s: string): this {
    const max = s.length * 3;
    this.ensure(max);
    this.pos += this.buf.write(s, this.pos, max, 'utf8');
    return this;
  }

  nulStr(s: string): this {
    return this.str(s).u8(0);
  }

  /** A length-encoded UTF-8 string. */
  lenencStr(s: string): this {
    if (s.length < 0x54) {
      // at most 251 bytes: one length byte, filled in after writing
      this.ensure(1 + s.length * 3);
      const at = this.pos;
      const n = this.buf.write(s, at + 1, s.length * 3, 'utf8');
      this.buf[at] = n;
      this.pos = at + 1 + n;
      return this;
    }
    const n = Buffer.byteLength(s, 'utf8');
    this.lenenc(n);
    this.ensure(n);
    this.buf.write(s, this.pos, n, 'utf8');
    this.pos += n;
    return this;
  }

  /** The framed reply so far (a copy), and a reset for the next one. */
  take(): Buffer {
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    this.pos = 0;
    return out;
  }
}

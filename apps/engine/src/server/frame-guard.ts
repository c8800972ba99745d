/** The largest payload one frame carries; a frame of this length is continued by the next one. */
const MAX_FRAME = 0xffffff;

/** What {@link FrameGuard.feed} found in a chunk. */
export type GuardVerdict =
  | { readonly ok: true }
  /** A frame header announced a packet longer than the limit; `sequenceId` is that frame's. */
  | { readonly ok: false; readonly sequenceId: number; readonly length: number };

/**
 * Reads the frame headers of a client's byte stream as it arrives, ahead of the packet parser,
 * so a packet is judged by the length its header announces before any of its payload is kept.
 * A packet is one or more frames (3-byte length, sequence id): a frame of 16 MiB − 1 bytes is
 * followed by another of the same packet. When the packet's announced length passes the limit
 * (max_allowed_packet, or the smaller bound before login) the chunk is refused: nothing of it
 * reaches the parser, so at most one socket read of the oversized packet is ever held.
 */
export class FrameGuard {
  /** Header bytes of the next frame seen so far (0–3 of its 4). */
  #header = Buffer.alloc(4);
  #headerLen = 0;
  /** Payload bytes of the current frame still to come. */
  #remaining = 0;
  /** Payload bytes of the current packet (its frames so far, the current one whole). */
  #packet = 0;
  /** The last frame was a full one: the next frame continues the same packet. */
  #continues = false;
  readonly #limit: () => number;

  constructor(limit: () => number) {
    this.#limit = limit;
  }

  /** A packet has started and not ended: some of its bytes have arrived, not all. */
  get midPacket(): boolean {
    return this.#headerLen > 0 || this.#remaining > 0 || this.#continues;
  }

  /** Scans `chunk`; on a refusal the guard stops (the connection closes). */
  feed(chunk: Buffer): GuardVerdict {
    let at = 0;
    const n = chunk.length;
    while (at < n) {
      if (this.#remaining > 0) {
        const take = Math.min(this.#remaining, n - at);
        this.#remaining -= take;
        at += take;
        continue;
      }
      this.#header[this.#headerLen++] = chunk[at++]!;
      if (this.#headerLen < 4) continue;
      this.#headerLen = 0;
      const length = this.#header.readUIntLE(0, 3);
      this.#packet = (this.#continues ? this.#packet : 0) + length;
      this.#continues = length === MAX_FRAME;
      if (this.#packet > this.#limit())
        return { ok: false, sequenceId: this.#header[3]!, length: this.#packet };
      this.#remaining = length;
    }
    return { ok: true };
  }
}

/** A fresh 64-bit seed from the platform's cryptographic source, for generators created without one. */
export function entropySeed(): bigint {
  const words = new Uint32Array(2);
  globalThis.crypto.getRandomValues(words);
  return (BigInt(words[0]!) << 32n) | BigInt(words[1]!);
}

/** Microseconds since the epoch, as `ut_time_us()` returns them: the seed of the 5.1 LCG fix. */
export function timeMicros(): bigint {
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  return BigInt(micros);
}

// Keys and values of the shared redo log tests (the workers insert them, the tests check them).

/** The key of insert `seq` of worker `workerNo`: both as big-endian 32-bit integers. */
export function keyOf(workerNo, seq) {
  const k = new Uint8Array(8);
  const v = new DataView(k.buffer);
  v.setUint32(0, workerNo);
  v.setUint32(4, seq);
  return k;
}

/** The value stored under a key: deterministic, 16–195 bytes, so a test can check it. */
export function valueFor(cycleNo, workerNo, seq) {
  const n = 16 + ((seq * 37 + workerNo * 11) % 180);
  const v = new Uint8Array(n);
  for (let i = 0; i < n; i++) v[i] = (seq + i * 7 + cycleNo * 13 + workerNo) & 0xff;
  return v;
}

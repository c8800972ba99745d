// compareBytes against Buffer.compare (node's native memcmp) on 16-byte keys that share a
// 12-byte prefix, the shape of encoded composite keys:  node bench/index.js
import b from 'benny';
import { compareBytes } from '../dist/index.js';

const N = 1024;
const keys = [];
for (let i = 0; i < N; i++) {
  const k = new Uint8Array(16);
  k.fill(7, 0, 12);
  k[12] = i >> 8;
  k[13] = i & 255;
  keys.push(k);
}
const bufs = keys.map((k) => Buffer.from(k.buffer, k.byteOffset, k.length));
let sink = 0;

await b.suite(
  'compare two 16-byte keys',
  b.add('compareBytes', () => {
    for (let i = 0; i < N - 1; i++) sink += compareBytes(keys[i], 0, 16, keys[i + 1], 0, 16);
  }),
  b.add('Buffer.compare', () => {
    for (let i = 0; i < N - 1; i++) sink += Buffer.compare(bufs[i], bufs[i + 1]);
  }),
  b.cycle(),
  b.complete(),
);
if (sink === 42) console.log('');

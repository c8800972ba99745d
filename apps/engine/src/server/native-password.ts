import { createHash, timingSafeEqual } from 'node:crypto';

function sha1(...parts: Buffer[]): Buffer {
  const h = createHash('sha1');
  for (const p of parts) h.update(p);
  return h.digest();
}

/** The stored form of a password for `mysql_native_password`: SHA1(SHA1(password)). */
export function nativePasswordHash(password: string): Buffer {
  return sha1(sha1(Buffer.from(password, 'utf8')));
}

/**
 * Checks a `mysql_native_password` response (MySQL `sql/auth/password.cc`, `check_scramble`):
 * the client sends SHA1(pw) XOR SHA1(scramble + SHA1(SHA1(pw))); the server recovers SHA1(pw)
 * with the stored double hash and compares its SHA1 with that hash. An empty password is an
 * empty response.
 */
export function checkNativePassword(response: Buffer, scramble: Buffer, stored: Buffer | undefined): boolean {
  if (stored === undefined) return response.length === 0;
  if (response.length !== 20) return false;
  const mask = sha1(scramble, stored);
  const stage1 = Buffer.allocUnsafe(20);
  for (let i = 0; i < 20; i++) stage1[i] = response[i]! ^ mask[i]!;
  return timingSafeEqual(sha1(stage1), stored);
}

/** The client's side, for tests: the response a client sends for `password`. */
export function nativePasswordResponse(password: string, scramble: Buffer): Buffer {
  if (password === '') return Buffer.alloc(0);
  const stage1 = sha1(Buffer.from(password, 'utf8'));
  const mask = sha1(scramble, sha1(stage1));
  for (let i = 0; i < 20; i++) stage1[i]! ^= mask[i]!;
  return stage1;
}

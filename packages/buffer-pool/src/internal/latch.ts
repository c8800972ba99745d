/**
 * The one place the pool takes its latches from. Temporary stand-in with the functional API of
 * @enginekit/mutex-atomics (same names and arguments) until that package is built.
 */
export const MUTEX_SLOTS = 4;
export const RWLOCK_SLOTS = 4;
const X_LOCK_DECR = 0x00100000;

export function mutexInit(a: Int32Array, i: number): void {
  for (let s = 0; s < MUTEX_SLOTS; s++) Atomics.store(a, i + s, 0);
}
export function mutexLock(a: Int32Array, i: number): void {
  while (Atomics.compareExchange(a, i, 0, 1) !== 0) Atomics.wait(a, i, 1, 1);
}
export function mutexTryLock(a: Int32Array, i: number): boolean {
  return Atomics.compareExchange(a, i, 0, 1) === 0;
}
export function mutexUnlock(a: Int32Array, i: number): void {
  Atomics.store(a, i, 0);
  Atomics.notify(a, i, 1);
}
export function rwInit(a: Int32Array, i: number): void {
  Atomics.store(a, i, X_LOCK_DECR);
  for (let s = 1; s < RWLOCK_SLOTS; s++) Atomics.store(a, i + s, 0);
}
export function rwTrySLock(a: Int32Array, i: number): boolean {
  for (;;) {
    const w = Atomics.load(a, i);
    if (w <= 0) return false;
    if (Atomics.compareExchange(a, i, w, w - 1) === w) return true;
  }
}
export function rwSLock(a: Int32Array, i: number): void {
  while (!rwTrySLock(a, i)) Atomics.wait(a, i, Atomics.load(a, i), 1);
}
export function rwSUnlock(a: Int32Array, i: number): void {
  Atomics.add(a, i, 1);
  Atomics.notify(a, i);
}
export function rwTryXLock(a: Int32Array, i: number): boolean {
  return Atomics.compareExchange(a, i, X_LOCK_DECR, 0) === X_LOCK_DECR;
}
export function rwXLock(a: Int32Array, i: number): void {
  while (!rwTryXLock(a, i)) Atomics.wait(a, i, Atomics.load(a, i), 1);
}
export function rwXUnlock(a: Int32Array, i: number): void {
  Atomics.add(a, i, X_LOCK_DECR);
  Atomics.notify(a, i);
}

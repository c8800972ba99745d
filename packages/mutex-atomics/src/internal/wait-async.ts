type WaitAsyncResult =
  | { async: false; value: 'not-equal' | 'timed-out' }
  | { async: true; value: Promise<'ok' | 'timed-out'> };
type WaitAsyncFn = (int32: Int32Array, index: number, value: number, timeout?: number) => WaitAsyncResult;

const nativeWaitAsync: WaitAsyncFn | undefined = (Atomics as unknown as { waitAsync?: WaitAsyncFn })
  .waitAsync;

/**
 * Sleep without blocking the event loop until `int32[index]` is notified or no longer equals
 * `value`, or `timeoutMs` passes. Uses `Atomics.waitAsync` (Node ≥ 16); where it is missing, polls
 * once a millisecond (still bounded by the timeout).
 */
export function waitAsync(
  int32: Int32Array,
  index: number,
  value: number,
  timeoutMs: number,
): Promise<unknown> | null {
  if (nativeWaitAsync !== undefined) {
    const r = nativeWaitAsync(int32, index, value, timeoutMs);
    return r.async ? r.value : null;
  }
  if (Atomics.load(int32, index) !== value) return null;
  return new Promise((resolve) => setTimeout(resolve, Math.min(1, timeoutMs)));
}

/** The MySQL error number `f` throws (undefined when it returns, or throws something without one). */
export function errno(f: () => unknown): number | undefined {
  try {
    f();
  } catch (e) {
    return (e as { errno?: number }).errno;
  }
  return undefined;
}

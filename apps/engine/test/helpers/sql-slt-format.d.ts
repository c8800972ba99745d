export declare function formatValue(v: unknown, type: string): string;
export declare function formatRows(
  rows: readonly (readonly unknown[])[],
  types: string,
  sort: 'nosort' | 'rowsort' | 'valuesort',
): string[];
export declare function hashValues(values: readonly string[]): string;
export declare function compareValues(
  got: readonly string[],
  expected: readonly string[],
): { ok: boolean; hash: string; detail?: string };

/** True when the package folder's dist/index.js is missing or older than its src/ or tsup config. */
export declare function isStale(pkg: string): boolean;
/** Rebuilds the package folder's dist/ with tsup when stale (under a lock); throws with tsup's output on failure. */
export declare function buildFresh(pkg: string): void;

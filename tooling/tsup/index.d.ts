import type { Options } from 'tsup';
export declare function libraryConfig(options?: {
  entry?: string[] | Record<string, string>;
  formats?: ('esm' | 'cjs')[];
}): Options;

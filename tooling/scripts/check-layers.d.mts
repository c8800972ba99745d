/** The result of one layering check over a workspace. */
export interface LayersReport {
  /** One line per violation, `path[:line]: what is wrong`. */
  readonly problems: string[];
  /** Workspace packages checked. */
  readonly packages: number;
  /** Source files scanned for imports. */
  readonly files: number;
}

/**
 * Checks a workspace against its allowed arrows.
 * `docsFile: null` skips the comparison with the architecture document.
 */
export declare function checkLayers(options: {
  root: string;
  layersFile?: string;
  docsFile?: string | null;
}): LayersReport;

/** Rewrites the generated tables of layers in `docs/architecture.md` from `docs/layers.json`. */
export declare function writeLayersTable(root: string): void;

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkLayers, writeLayersTable } from '../check-layers.mjs';

// A tiny workspace: `low` uses nothing, `high` uses `low`, the app uses both, and one preset
// under tooling/. Each test breaks one rule and expects exactly that problem.
type Files = Record<string, string>;

const manifest = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name, version: '0.0.0', type: 'module', ...extra }, null, 2);

const layers = {
  tools: ['tooling/*'],
  packages: {
    '@enginekit/low': { dir: 'packages/low', uses: [] as string[] },
    '@enginekit/high': { dir: 'packages/high', uses: ['@enginekit/low'] },
    '@enginekit/app': { dir: 'apps/app', uses: ['@enginekit/low', '@enginekit/high'] },
    '@enginekit/later': { dir: 'apps/later', planned: true, uses: ['@enginekit/app'] },
  },
};

function baseFiles(): Files {
  return {
    'pnpm-workspace.yaml': 'packages:\n  - packages/*\n  - apps/*\n  - tooling/*\n',
    'docs/layers.json': JSON.stringify(layers, null, 2),
    'docs/architecture.md':
      '# fixture\n\n<!-- layers:begin (generated from docs/layers.json by tooling/scripts/check-layers.mjs --write) -->\n<!-- layers:end -->\n',
    'packages/low/package.json': manifest('@enginekit/low', {
      devDependencies: { '@enginekit/preset': 'workspace:*', 'node-only': '1.0.0' },
    }),
    'packages/low/src/index.ts':
      "import { join } from 'node:path';\nimport { part } from './internal/part.js';\nexport const low = join('a', part);\n",
    'packages/low/src/internal/part.ts': "export const part = 'b';\n",
    'packages/low/test/low.test.ts':
      "import { low } from '../src/index.js';\nimport { low as built } from '@enginekit/low';\n// import '@enginekit/high' is only a comment\nconst text = \"import '@enginekit/high'\";\nexport const worker = new URL('../dist/worker.js', import.meta.url);\nexport { low, built, text };\n",
    'packages/high/package.json': manifest('@enginekit/high', {
      dependencies: { '@enginekit/low': 'workspace:^' },
    }),
    'packages/high/src/index.ts': "export { low } from '@enginekit/low';\n",
    'apps/app/package.json': manifest('@enginekit/app', {
      private: true,
      dependencies: { '@enginekit/low': 'workspace:^', '@enginekit/high': 'workspace:^' },
    }),
    'apps/app/src/main.ts':
      "import { low } from '@enginekit/low';\nconst high = await import('@enginekit/high');\nexport { low, high };\n",
    'tooling/preset/package.json': manifest('@enginekit/preset', { private: true }),
    'tooling/preset/index.js': 'export const preset = {};\n',
  };
}

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function workspace(change: (files: Files) => void = () => {}): string {
  const root = mkdtempSync(join(tmpdir(), 'check-layers-'));
  roots.push(root);
  const files = baseFiles();
  change(files);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  writeLayersTable(root);
  return root;
}

const problems = (root: string) => checkLayers({ root }).problems;

const withLayers = (files: Files, edit: (l: typeof layers) => void) => {
  const copy = structuredClone(layers);
  edit(copy);
  files['docs/layers.json'] = JSON.stringify(copy, null, 2);
};

describe('check-layers on a fixture workspace', () => {
  it('passes a workspace that keeps its arrows (comments, strings, own src and dist are fine)', () => {
    const root = workspace();
    const report = checkLayers({ root });
    expect(report.problems).toEqual([]);
    expect(report.packages).toBe(4);
    expect(report.files).toBe(6);
  });

  it('fails a dependency on a package beside or above', () => {
    const root = workspace((f) => {
      f['packages/low/package.json'] = manifest('@enginekit/low', {
        dependencies: { '@enginekit/high': 'workspace:^' },
      });
    });
    expect(problems(root)).toEqual([
      'packages/low/package.json: dependencies has @enginekit/high, not an allowed arrow (low may use: nothing but the tools)',
    ]);
  });

  it('fails a devDependency that is not an arrow, even one only a benchmark needs', () => {
    const root = workspace((f) => {
      f['packages/high/package.json'] = manifest('@enginekit/high', {
        dependencies: { '@enginekit/low': 'workspace:^' },
        devDependencies: { '@enginekit/app': 'workspace:^' },
      });
    });
    expect(problems(root)).toEqual([
      'packages/high/package.json: devDependencies has @enginekit/app, not an allowed arrow (high may use: low)',
    ]);
  });

  it('fails a static import, a re-export and an import type without an arrow', () => {
    const root = workspace((f) => {
      f['packages/low/src/index.ts'] =
        "import { x } from '@enginekit/high';\nexport * from '@enginekit/app';\nexport type T = import('@enginekit/high').T;\nexport const low = x;\n";
    });
    expect(problems(root)).toEqual([
      'packages/low/src/index.ts:1: imports @enginekit/high, not an allowed arrow (low may use: nothing but the tools)',
      'packages/low/src/index.ts:2: imports @enginekit/app, not an allowed arrow (low may use: nothing but the tools)',
      'packages/low/src/index.ts:3: imports @enginekit/high, not an allowed arrow (low may use: nothing but the tools)',
    ]);
  });

  it('fails a dynamic import and a require in a benchmark', () => {
    const root = workspace((f) => {
      f['packages/low/bench/run.js'] = "const m = await import('@enginekit/high');\nexport { m };\n";
      f['packages/low/bench/old.cjs'] = "const m = require('@enginekit/app');\nmodule.exports = m;\n";
    });
    expect(problems(root)).toEqual([
      'packages/low/bench/old.cjs:1: imports @enginekit/app, not an allowed arrow (low may use: nothing but the tools)',
      'packages/low/bench/run.js:1: imports @enginekit/high, not an allowed arrow (low may use: nothing but the tools)',
    ]);
  });

  it('fails a dependency on an enginekit package that does not exist', () => {
    const root = workspace((f) => {
      f['packages/low/package.json'] = manifest('@enginekit/low', {
        devDependencies: { '@enginekit/typo': 'workspace:*' },
      });
    });
    expect(problems(root)).toEqual([
      'packages/low/package.json: devDependencies has @enginekit/typo, which is neither a workspace package nor in docs/layers.json',
    ]);
  });

  it('fails an allowed import that package.json does not declare', () => {
    const root = workspace((f) => {
      f['packages/high/package.json'] = manifest('@enginekit/high');
    });
    expect(problems(root)).toEqual([
      'packages/high/src/index.ts:1: imports @enginekit/low, which packages/high/package.json does not declare',
    ]);
  });

  it("fails a bare path into another package's dist/ or src/", () => {
    const root = workspace((f) => {
      f['packages/high/src/index.ts'] =
        "export { low } from '@enginekit/low/dist/index.js';\nexport { part } from '@enginekit/low/src/internal/part.js';\n";
    });
    expect(problems(root)).toEqual([
      "packages/high/src/index.ts:1: '@enginekit/low/dist/index.js' reaches into @enginekit/low's dist/: import its entry points",
      "packages/high/src/index.ts:2: '@enginekit/low/src/internal/part.js' reaches into @enginekit/low's src/: import its entry points",
    ]);
  });

  it('fails a relative path out of the package, into another package or anywhere else', () => {
    const root = workspace((f) => {
      f['packages/high/src/index.ts'] =
        "export { low } from '../../low/src/index.js';\nexport const docs = new URL('../../../docs/layers.json', import.meta.url);\n";
      f['apps/app/test/w.test.ts'] =
        "export const w = new URL('../../../packages/low/dist/w.js', import.meta.url);\n";
    });
    expect(problems(root)).toEqual([
      "packages/high/src/index.ts:1: '../../low/src/index.js' leaves the package (into @enginekit/low: import it by its package name)",
      "packages/high/src/index.ts:2: '../../../docs/layers.json' leaves the package",
      "apps/app/test/w.test.ts:1: '../../../packages/low/dist/w.js' leaves the package (into @enginekit/low: import it by its package name)",
    ]);
  });

  it('fails a file: dependency on a folder outside the package', () => {
    const root = workspace((f) => {
      f['apps/app/package.json'] = manifest('@enginekit/app', {
        private: true,
        dependencies: {
          '@enginekit/low': 'workspace:^',
          '@enginekit/high': 'workspace:^',
          lib: 'file:../../lib',
        },
      });
    });
    expect(problems(root)).toEqual([
      'apps/app/package.json: dependencies has lib from file:../../lib, a folder outside the package',
    ]);
  });

  it('fails a tool that depends on a product package', () => {
    const root = workspace((f) => {
      f['tooling/preset/package.json'] = manifest('@enginekit/preset', {
        private: true,
        dependencies: { '@enginekit/low': 'workspace:^' },
      });
    });
    expect(problems(root)).toEqual([
      'tooling/preset/package.json: dependencies has @enginekit/low, not an allowed arrow (a tool may use only the other tools)',
    ]);
  });

  it('fails a package that the layers do not place', () => {
    const root = workspace((f) => {
      f['packages/extra/package.json'] = manifest('@enginekit/extra');
    });
    expect(problems(root)).toEqual([
      'packages/extra/package.json: @enginekit/extra is not in docs/layers.json: give it a place among the layers',
    ]);
  });

  it('fails layers that are wrong themselves: a missing package, a stale "planned", a cycle, an unknown target', () => {
    const root = workspace((f) => {
      withLayers(f, (l) => {
        l.packages['@enginekit/low'].uses = ['@enginekit/app'];
        l.packages['@enginekit/high'].uses.push('@enginekit/nowhere');
        (l.packages as Record<string, unknown>)['@enginekit/ghost'] = { dir: 'packages/ghost', uses: [] };
        l.packages['@enginekit/later'].dir = 'apps/app';
      });
    });
    expect(problems(root)).toEqual([
      'docs/layers.json: @enginekit/high uses @enginekit/nowhere, which is not a package of docs/layers.json',
      'docs/layers.json: @enginekit/later is marked planned, but apps/app exists: drop "planned"',
      'docs/layers.json: @enginekit/ghost has no package at packages/ghost (mark it "planned" if it is not built yet)',
      'docs/layers.json: cycle low → app → low',
      'docs/layers.json: cycle low → app → high → low',
    ]);
  });

  it('fails when the architecture document does not show the arrows the layers allow', () => {
    const root = workspace();
    const docs = join(root, 'docs', 'architecture.md');
    writeFileSync(docs, readFileSync(docs, 'utf8').replace('| `low`, `high` |', '| `low` |'));
    expect(problems(root)).toEqual([
      'docs/architecture.md: the tables of layers differ from docs/layers.json (node tooling/scripts/check-layers.mjs --write)',
    ]);
    writeFileSync(docs, '# no table\n');
    expect(problems(root)[0]).toMatch(/^docs\/architecture\.md: no table of arrows/);
  });
});

// The app's source folders, layered: the root files on top, `ui` and `cli` side by side, `core`,
// a planned `later`, `base` at the bottom.
const folderSection = {
  '@enginekit/app': {
    layers: [
      { '.': { holds: 'entry points' } },
      { ui: { holds: 'screens' }, cli: { holds: 'commands' } },
      { core: { holds: 'the model' } },
      { later: { holds: 'not built yet', planned: true } },
      { base: { holds: 'helpers' } },
    ],
  },
};

function withFolders(f: Files, edit: (section: typeof folderSection) => void = () => {}): void {
  const section = structuredClone(folderSection);
  edit(section);
  f['docs/layers.json'] = JSON.stringify({ ...layers, folders: section }, null, 2);
  f['apps/app/src/main.ts'] =
    "import { low } from '@enginekit/low';\nimport { view } from './ui/view.js';\nimport { run } from './cli/run.js';\nexport { low, view, run };\n";
  f['apps/app/src/ui/view.ts'] =
    "import { model } from '../core/model.js';\nimport { label } from './parts/label.js';\nexport const view = () => label(model());\n";
  f['apps/app/src/ui/parts/label.ts'] =
    "import type { Text } from '../../base/text.js';\nexport const label = (t: Text) => t;\n";
  f['apps/app/src/cli/run.ts'] =
    "import { model } from '../core/model.js';\nexport const worker = new URL('../base/worker.js', import.meta.url);\nexport const run = () => model();\n";
  f['apps/app/src/core/model.ts'] =
    "import { text } from '../base/text.js';\nimport { high } from '@enginekit/high';\nexport const model = () => text(String(high));\n";
  f['apps/app/src/base/text.ts'] =
    'export type Text = string;\nexport const text = (s: string): Text => s;\n';
  f['apps/app/src/base/worker.ts'] = 'export {};\n';
  f['apps/app/test/app.test.ts'] =
    "import { text } from '../src/base/text.js';\nimport '../src/main.js';\nexport { text };\n";
}

const ruleTail = '(docs/layers.json, folders of @enginekit/app)';

describe('check-layers on the folders inside a package', () => {
  it('passes folders that import their own files, lower layers and packages (a planned folder may be absent)', () => {
    const root = workspace((f) => withFolders(f));
    expect(checkLayers({ root }).problems).toEqual([]);
  });

  it('fails an import of a layer above, with the file, the line, the import and the rule', () => {
    const root = workspace((f) => {
      withFolders(f);
      f['apps/app/src/base/text.ts'] =
        "import type { model } from '../core/model.js';\nexport type Text = string;\nexport const text = (s: string): Text => s;\nexport const late = () => import('../main.js');\nexport type M = typeof model;\n";
      f['apps/app/src/core/model.ts'] =
        "import { text } from '../base/text.js';\nexport const w = new URL('../ui/view.js', import.meta.url);\nexport const model = () => text('m');\n";
    });
    expect(problems(root)).toEqual([
      `apps/app/src/base/text.ts:1: '../core/model.js' imports core (layer 3) from base (layer 5): a folder imports only the layers below its own ${ruleTail}`,
      `apps/app/src/base/text.ts:4: '../main.js' imports . (layer 1) from base (layer 5): a folder imports only the layers below its own ${ruleTail}`,
      `apps/app/src/core/model.ts:2: '../ui/view.js' imports ui (layer 2) from core (layer 3): a folder imports only the layers below its own ${ruleTail}`,
    ]);
  });

  it('fails an import of a folder beside it in its layer', () => {
    const root = workspace((f) => {
      withFolders(f);
      f['apps/app/src/ui/view.ts'] =
        "import { model } from '../core/model.js';\nimport { run } from '../cli/run.js';\nexport const view = () => [model(), run()];\n";
    });
    expect(problems(root)).toEqual([
      `apps/app/src/ui/view.ts:2: '../cli/run.js' imports cli from ui, beside it in layer 2: folders of one layer do not import each other ${ruleTail}`,
    ]);
  });

  it('fails a folder with no layer, a listed folder with no files, a folder listed twice, an unknown package', () => {
    const root = workspace((f) => {
      withFolders(f, (s) => {
        (s['@enginekit/app'].layers[4] as Record<string, unknown>).gone = { holds: 'removed long ago' };
        (s['@enginekit/app'].layers[4] as Record<string, unknown>).ui = { holds: 'listed again' };
        (s as Record<string, unknown>)['@enginekit/nowhere'] = { layers: [] };
      });
      f['apps/app/src/extra/thing.ts'] = 'export const thing = 1;\n';
    });
    expect(problems(root)).toEqual([
      'docs/layers.json: "folders" layers @enginekit/nowhere, which is not a package of docs/layers.json',
      'docs/layers.json: folders of @enginekit/app: ui is listed in more than one layer',
      'apps/app/src/extra/: extra has no layer in docs/layers.json (folders of @enginekit/app): give it one',
      'docs/layers.json: folders of @enginekit/app: apps/app/src/gone/ has no source files (mark it "planned" if it is not built yet)',
    ]);
  });

  it('checks only the source root: tests and benchmarks may import any folder', () => {
    const root = workspace((f) => {
      withFolders(f);
      f['apps/app/bench/run.ts'] =
        "import { text } from '../src/base/text.js';\nimport '../src/ui/view.js';\nexport { text };\n";
    });
    expect(problems(root)).toEqual([]);
  });

  it('shows the folder layers in the architecture document and fails when it differs', () => {
    const root = workspace((f) => withFolders(f));
    const docs = join(root, 'docs', 'architecture.md');
    const text = readFileSync(docs, 'utf8');
    expect(text).toContain('`@enginekit/app` (`apps/app/src`):');
    expect(text).toContain('| 2 | `src/ui/` | screens |\n| 2 | `src/cli/` | commands |');
    expect(text).toContain('| 4 | `src/later/` (planned) | not built yet |');
    writeFileSync(docs, text.replace('| 3 | `src/core/` | the model |\n', ''));
    expect(problems(root)).toEqual([
      'docs/architecture.md: the tables of layers differ from docs/layers.json (node tooling/scripts/check-layers.mjs --write)',
    ]);
  });
});

describe('check-layers as a command', () => {
  it("passes this repository's tree, the engine's folder layers included, with one summary line", () => {
    const script = fileURLToPath(new URL('../check-layers.mjs', import.meta.url));
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(run.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^layers: ok \(\d+ packages, \d+ files\)$/),
    ]);
    expect(run.status).toBe(0);
    const layersFile = join(dirname(script), '..', '..', 'docs', 'layers.json');
    expect(Object.keys(JSON.parse(readFileSync(layersFile, 'utf8')).folders)).toEqual(['@enginekit/engine']);
  }, 120_000);
});

// The layers inside one package: the `folders` section of docs/layers.json orders the top-level
// folders of a package's source root (`src` unless it says otherwise) from top to bottom, several
// folders sharing a layer where neither needs the other. A source file belongs to the folder its
// path starts with; a file directly in the root belongs to the pseudo-folder `.`. A relative
// import (static, dynamic, `import type`, `new URL(..., import.meta.url)`: whatever
// lib/specifiers.mjs finds) may name a file of its own folder or of a layer below its own; never one
// of a folder beside it in its layer, nor above it.
import { statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * @typedef {{ name: string, layer: number, holds: string, planned: boolean }} LayerFolder
 * @typedef {{ root: string, layers: LayerFolder[][], byName: Map<string, LayerFolder> }} FolderLayers
 */

/**
 * The `folders` section of docs/layers.json: `{ package: { root?, layers: [{ folder: { holds,
 * planned? } }] } }`. A folder listed twice is a mistake the check reports, so it is kept here.
 *
 * @param {string} file for messages
 * @param {unknown} json the section (undefined: no package is layered inside)
 * @returns {{ layersOf: Map<string, FolderLayers>, duplicates: [string, string][] }}
 */
export function parseFolderLayers(file, json) {
  const layersOf = new Map();
  const duplicates = [];
  if (json === undefined) return { layersOf, duplicates };
  if (typeof json !== 'object' || json === null)
    throw new Error(`${file}: "folders" must map package names to { "layers": [...] }`);
  for (const [pkg, entry] of Object.entries(json)) {
    if (!Array.isArray(entry?.layers) || (entry.root !== undefined && typeof entry.root !== 'string'))
      throw new Error(`${file}: folders of ${pkg} need "layers" (a list, top first) and an optional "root"`);
    const byName = new Map();
    const layers = entry.layers.map((layer, index) => {
      if (typeof layer !== 'object' || layer === null || Array.isArray(layer))
        throw new Error(`${file}: layer ${index + 1} of ${pkg} must map folder names to { "holds" }`);
      return Object.entries(layer).map(([name, folder]) => {
        if (typeof folder?.holds !== 'string')
          throw new Error(`${file}: folder ${name} of ${pkg} needs "holds" (what it holds)`);
        const placed = { name, layer: index + 1, holds: folder.holds, planned: folder.planned === true };
        if (byName.has(name)) duplicates.push([pkg, name]);
        else byName.set(name, placed);
        return placed;
      });
    });
    layersOf.set(pkg, { root: entry.root ?? 'src', layers, byName });
  }
  return { layersOf, duplicates };
}

/** The folder of a path under the source root: its first segment, or `.` for a file in the root. */
function folderOf(srcDir, path) {
  const parts = relative(srcDir, path).split(sep);
  if (parts.length > 1) return parts[0];
  try {
    if (statSync(path).isDirectory()) return parts[0];
  } catch {
    // a file that does not exist (yet): named by its path alone
  }
  return '.';
}

const inside = (dir, path) => path.startsWith(dir + sep);
const label = (name) => (name === '.' ? '. (the files directly in the root)' : name);

/**
 * Problems of one package's folder layers: folders of the tree that have no layer, layers naming
 * folders that do not exist (unless planned), and imports that go sideways or up.
 *
 * @param {{ root: string, pkgName: string, pkgDir: string, layers: FolderLayers, files: string[], layersName: string,
 *   specifiersOf: (file: string) => { specifier: string, line: number }[] }} options
 *   `files`: the package's source files (absolute); only those under the source root are read,
 *   through `specifiersOf` (the module specifiers of a file, as specifiers.mjs finds them).
 * @returns {string[]}
 */
export function checkFolderLayers({ root, pkgName, pkgDir, layers, files, layersName, specifiersOf }) {
  const problems = [];
  const srcDir = join(root, pkgDir, layers.root);
  const srcName = `${pkgDir}/${layers.root}`;
  const sources = files.filter((file) => inside(srcDir, file));
  const present = new Set(sources.map((file) => folderOf(srcDir, file)));

  for (const name of [...present].sort()) {
    if (!layers.byName.has(name))
      problems.push(
        `${srcName}/${name === '.' ? '' : `${name}/`}: ${label(name)} has no layer in ${layersName} (folders of ${pkgName}): give it one`,
      );
  }
  for (const folder of layers.byName.values()) {
    if (!folder.planned && !present.has(folder.name))
      problems.push(
        `${layersName}: folders of ${pkgName}: ${srcName}/${folder.name === '.' ? '' : `${folder.name}/`} has no source files (mark it "planned" if it is not built yet)`,
      );
  }

  for (const file of sources) {
    const from = layers.byName.get(folderOf(srcDir, file));
    if (from === undefined) continue;
    const where = relative(root, file).split(sep).join('/');
    for (const { specifier, line } of specifiersOf(file)) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier);
      if (!inside(srcDir, target)) continue;
      const to = layers.byName.get(folderOf(srcDir, target));
      if (to === undefined || to.name === from.name) continue;
      const at = `${where}:${line}: '${specifier}'`;
      if (to.layer < from.layer) {
        problems.push(
          `${at} imports ${to.name} (layer ${to.layer}) from ${from.name} (layer ${from.layer}): a folder imports only the layers below its own (${layersName}, folders of ${pkgName})`,
        );
      } else if (to.layer === from.layer) {
        problems.push(
          `${at} imports ${to.name} from ${from.name}, beside it in layer ${from.layer}: folders of one layer do not import each other (${layersName}, folders of ${pkgName})`,
        );
      }
    }
  }
  return problems;
}

/**
 * The Markdown table of one package's folder layers, top first.
 *
 * @param {FolderLayers} layers
 */
export function folderLayersTable(layers) {
  const rows = ['| layer | folder | holds |', '|---|---|---|'];
  for (const layer of layers.layers) {
    for (const folder of layer) {
      const path = folder.name === '.' ? `${layers.root}/*.ts` : `${layers.root}/${folder.name}/`;
      rows.push(`| ${folder.layer} | \`${path}\`${folder.planned ? ' (planned)' : ''} | ${folder.holds} |`);
    }
  }
  return rows.join('\n');
}

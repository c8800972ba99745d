#!/usr/bin/env node
// The layering check (a step of `pnpm test`). docs/layers.json lists, for every workspace
// package, the packages it may use; the dev tools under tooling/ are open to all. This fails on:
// - a workspace package that docs/layers.json does not place (or places in another folder), an
//   entry with no package behind it unless it is marked planned, an arrow to an unknown package,
//   a cycle in the arrows;
// - a dependency, devDependency, peerDependency or optionalDependency on an enginekit package that
//   is not an allowed arrow, and a `file:`/`link:` dependency on a folder outside the package;
// - an import (static, dynamic, `import type`, require, `new URL(..., import.meta.url)`) in any
//   source file of a package (src, test, bench and its config files) that names another enginekit
//   package without an allowed arrow, names one its package.json does not declare, reaches into
//   another package's `src/` or `dist/`, or leaves the package with a relative or absolute path;
// - inside a package that docs/layers.json's `folders` section layers (lib/folder-layers.mjs):
//   a folder of its source root with no layer, a listed folder with no files unless it is marked
//   planned, a folder listed twice, and a relative import from one folder into a folder beside
//   it in its layer or above it (`import type` included);
// - docs/architecture.md's tables of arrows and layers differing from docs/layers.json
//   (`node tooling/scripts/check-layers.mjs --write` regenerates them).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkFolderLayers } from './lib/folder-layers.mjs';
import { moduleSpecifiers, sourceExtensions } from './lib/specifiers.mjs';
import {
  docsBegin,
  docsEnd,
  isToolDir,
  layersTable,
  loadLayers,
  shortName,
  workspacePackages,
} from './lib/workspace.mjs';

const dependencyFields = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];
const skippedDirs = new Set(['node_modules', 'dist', 'coverage']);

/** Source files of a package folder, skipping build output, installs, bench results and hidden entries. */
function sourceFiles(dir) {
  const files = [];
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        const benchResults = entry.name === 'results' && current.endsWith(`${sep}bench`);
        if (!skippedDirs.has(entry.name) && !benchResults) walk(path);
      } else if (sourceExtensions.some((ext) => entry.name.endsWith(ext))) {
        files.push(path);
      }
    }
  };
  walk(dir);
  return files.sort();
}

const inside = (dir, path) => path === dir || path.startsWith(dir + sep);

/** The enginekit package a bare specifier names (`@enginekit/x/sub` → `@enginekit/x`, `sub`). */
function splitSpecifier(specifier) {
  const parts = specifier.split('/');
  if (specifier.startsWith('@'))
    return { name: parts.slice(0, 2).join('/'), subpath: parts.slice(2).join('/') };
  return { name: parts[0], subpath: parts.slice(1).join('/') };
}

function cycles(layers) {
  const found = [];
  const state = new Map();
  const visit = (name, path) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'active') {
      found.push([...path.slice(path.indexOf(name)), name]);
      return;
    }
    state.set(name, 'active');
    for (const next of layers.packages.get(name)?.uses ?? []) visit(next, [...path, name]);
    state.set(name, 'done');
  };
  for (const name of layers.packages.keys()) visit(name, []);
  return found;
}

/**
 * @param {{ root: string, layersFile?: string, docsFile?: string | null }} options
 *   `docsFile: null` skips the comparison with the architecture document.
 * @returns {{ problems: string[], packages: number, files: number }}
 */
export function checkLayers({ root, layersFile = join(root, 'docs', 'layers.json'), docsFile }) {
  const layersName = relative(root, layersFile);
  const layers = loadLayers(layersFile);
  const packages = workspacePackages(root);
  const problems = [];
  const byName = new Map(packages.map((p) => [p.name, p]));
  const toolNames = new Set(packages.filter((p) => isToolDir(layers.tools, p.dir)).map((p) => p.name));
  const known = (name) => byName.has(name) || layers.packages.has(name);
  const isEnginekit = (name) => name.startsWith('@enginekit/') || known(name);
  const usesText = (from) => {
    if (toolNames.has(from)) return 'a tool may use only the other tools';
    const uses = layers.packages.get(from)?.uses ?? [];
    return `${shortName(from)} may use: ${uses.length === 0 ? 'nothing but the tools' : uses.map(shortName).join(', ')}`;
  };
  const allowed = (from, to) => {
    if (toolNames.has(to)) return true;
    if (toolNames.has(from)) return false;
    return layers.packages.get(from)?.uses.includes(to) ?? false;
  };

  // The arrows themselves.
  for (const [name, layer] of layers.packages) {
    for (const target of layer.uses) {
      if (target === name) problems.push(`${layersName}: ${name} lists itself in "uses"`);
      else if (!layers.packages.has(target) && !toolNames.has(target))
        problems.push(`${layersName}: ${name} uses ${target}, which is not a package of ${layersName}`);
    }
    const found = packages.find((p) => p.dir === layer.dir);
    if (layer.planned) {
      if (found)
        problems.push(`${layersName}: ${name} is marked planned, but ${layer.dir} exists: drop "planned"`);
    } else if (!found) {
      problems.push(
        `${layersName}: ${name} has no package at ${layer.dir} (mark it "planned" if it is not built yet)`,
      );
    } else if (found.name !== name) {
      problems.push(`${layersName}: ${layer.dir} holds ${found.name}, not ${name}`);
    }
  }
  for (const cycle of cycles(layers))
    problems.push(`${layersName}: cycle ${cycle.map(shortName).join(' → ')}`);
  for (const name of layers.folders.keys()) {
    if (!layers.packages.has(name))
      problems.push(`${layersName}: "folders" layers ${name}, which is not a package of ${layersName}`);
  }
  for (const [name, folder] of layers.duplicateFolders)
    problems.push(`${layersName}: folders of ${name}: ${folder} is listed in more than one layer`);

  // every file is parsed once, for both the package arrows and the folder layers
  const parsed = new Map();
  const specifiersOf = (file) => {
    let found = parsed.get(file);
    if (found === undefined) {
      found = moduleSpecifiers(file, readFileSync(file, 'utf8'));
      parsed.set(file, found);
    }
    return found;
  };

  let fileCount = 0;
  for (const pkg of packages) {
    const pkgDir = join(root, pkg.dir);
    const manifest = `${pkg.dir}/package.json`;
    const isTool = toolNames.has(pkg.name);
    const layer = layers.packages.get(pkg.name);
    if (!isTool) {
      if (!layer) {
        problems.push(`${manifest}: ${pkg.name} is not in ${layersName}: give it a place among the layers`);
        continue;
      }
      if (layer.dir !== pkg.dir) {
        problems.push(`${manifest}: ${layersName} places ${pkg.name} in ${layer.dir}, not ${pkg.dir}`);
      }
    }

    const declared = new Set();
    for (const field of dependencyFields) {
      for (const [dep, spec] of Object.entries(pkg.json[field] ?? {})) {
        declared.add(dep);
        if (isEnginekit(dep) && !known(dep)) {
          problems.push(
            `${manifest}: ${field} has ${dep}, which is neither a workspace package nor in ${layersName}`,
          );
        } else if (isEnginekit(dep) && dep !== pkg.name && !allowed(pkg.name, dep)) {
          problems.push(`${manifest}: ${field} has ${dep}, not an allowed arrow (${usesText(pkg.name)})`);
        }
        const local = /^(?:file|link):(.*)$/.exec(String(spec));
        if (local && !inside(pkgDir, resolve(pkgDir, local[1]))) {
          problems.push(`${manifest}: ${field} has ${dep} from ${spec}, a folder outside the package`);
        }
      }
    }

    const files = sourceFiles(pkgDir);
    const folderLayers = layers.folders.get(pkg.name);
    if (folderLayers !== undefined && !isTool) {
      problems.push(
        ...checkFolderLayers({
          root,
          pkgName: pkg.name,
          pkgDir: pkg.dir,
          layers: folderLayers,
          files,
          layersName,
          specifiersOf,
        }),
      );
    }
    for (const file of files) {
      fileCount += 1;
      const where = relative(root, file).split(sep).join('/');
      for (const { specifier, line, kind } of specifiersOf(file)) {
        const at = `${where}:${line}`;
        if (specifier.startsWith('.') || isAbsolute(specifier) || specifier.startsWith('file:')) {
          const target = specifier.startsWith('file:')
            ? fileURLToPath(specifier)
            : resolve(dirname(file), specifier);
          if (!inside(pkgDir, target)) {
            const owner = packages.find((p) => inside(join(root, p.dir), target));
            const into = owner ? ` (into ${owner.name}: import it by its package name)` : '';
            problems.push(`${at}: '${specifier}' leaves the package${into}`);
          }
          continue;
        }
        if (kind === 'url') continue;
        const { name, subpath } = splitSpecifier(specifier);
        if (name === pkg.name || !isEnginekit(name)) continue;
        if (!allowed(pkg.name, name)) {
          problems.push(`${at}: imports ${specifier}, not an allowed arrow (${usesText(pkg.name)})`);
        } else if (!declared.has(name)) {
          problems.push(`${at}: imports ${name}, which ${manifest} does not declare`);
        }
        const top = subpath.split('/')[0];
        if (top === 'src' || top === 'dist') {
          problems.push(`${at}: '${specifier}' reaches into ${name}'s ${top}/: import its entry points`);
        }
      }
    }
  }

  if (docsFile !== null) {
    const docs = docsFile ?? join(root, 'docs', 'architecture.md');
    const docsName = relative(root, docs);
    const text = existsSync(docs) ? readFileSync(docs, 'utf8') : '';
    const begin = text.indexOf(docsBegin);
    const end = text.indexOf(docsEnd);
    if (begin < 0 || end < begin) {
      problems.push(`${docsName}: no table of arrows between ${docsBegin} and ${docsEnd}`);
    } else if (text.slice(begin + docsBegin.length, end).trim() !== layersTable(layers)) {
      problems.push(
        `${docsName}: the tables of layers differ from ${layersName} (node tooling/scripts/check-layers.mjs --write)`,
      );
    }
  }

  return { problems, packages: packages.length, files: fileCount };
}

/** Rewrites the generated tables in the architecture document from docs/layers.json. */
export function writeLayersTable(root) {
  const docs = join(root, 'docs', 'architecture.md');
  const text = readFileSync(docs, 'utf8');
  const begin = text.indexOf(docsBegin);
  const end = text.indexOf(docsEnd);
  if (begin < 0 || end < begin) throw new Error(`${docs}: add the lines ${docsBegin} and ${docsEnd} first`);
  const table = layersTable(loadLayers(join(root, 'docs', 'layers.json')));
  writeFileSync(docs, `${text.slice(0, begin + docsBegin.length)}\n${table}\n${text.slice(end)}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  if (process.argv.includes('--write')) writeLayersTable(root);
  const { problems, packages, files } = checkLayers({ root });
  for (const problem of problems) console.log(problem);
  if (problems.length > 0) {
    console.log(`layers: ${problems.length} problem${problems.length === 1 ? '' : 's'} (docs/layers.json)`);
    process.exit(1);
  }
  console.log(`layers: ok (${packages} packages, ${files} files)`);
}

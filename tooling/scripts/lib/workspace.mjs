// The workspace as the layering check sees it: the package folders named by
// pnpm-workspace.yaml (plain folders and `folder/*` patterns), each with its package.json,
// and the allowed arrows of docs/layers.json (between packages, and between the folders inside
// a package: folder-layers.mjs).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { folderLayersTable, parseFolderLayers } from './folder-layers.mjs';

/**
 * The `packages:` patterns of pnpm-workspace.yaml. Only the list form is read
 * (`  - packages/*`), which is all this repository uses.
 *
 * @param {string} root
 * @returns {string[]}
 */
export function workspacePatterns(root) {
  const text = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const patterns = [];
  let inPackages = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '').trimEnd();
    if (line === '') continue;
    if (!line.startsWith(' ')) {
      inPackages = line === 'packages:';
      continue;
    }
    const item = /^\s+-\s+['"]?([^'"]+)['"]?$/.exec(line);
    if (inPackages && item) patterns.push(item[1]);
  }
  return patterns;
}

/**
 * Folders (relative to root, `/`-separated) matched by a pattern: `dir/*` or a plain folder.
 *
 * @param {string} root
 * @param {string} pattern
 */
export function expandPattern(root, pattern) {
  if (pattern.endsWith('/*')) {
    const parent = pattern.slice(0, -2);
    if (!existsSync(join(root, parent))) return [];
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${parent}/${entry.name}`)
      .sort();
  }
  if (pattern.includes('*')) throw new Error(`pnpm-workspace.yaml: pattern ${pattern} is not supported`);
  return [pattern];
}

/**
 * @typedef {{ dir: string, name: string, json: Record<string, any> }} WorkspacePackage
 * @param {string} root
 * @returns {WorkspacePackage[]}
 */
export function workspacePackages(root) {
  const packages = [];
  for (const pattern of workspacePatterns(root)) {
    for (const dir of expandPattern(root, pattern)) {
      const file = join(root, dir, 'package.json');
      if (!existsSync(file)) continue;
      const json = JSON.parse(readFileSync(file, 'utf8'));
      packages.push({ dir, name: json.name ?? dir, json });
    }
  }
  return packages;
}

/**
 * @typedef {{ dir: string, uses: string[], planned: boolean }} Layer
 * @typedef {import('./folder-layers.mjs').FolderLayers} FolderLayers
 * @typedef {{ tools: string[], packages: Map<string, Layer>, folders: Map<string, FolderLayers>, duplicateFolders: [string, string][] }} Layers
 * @param {string} file
 * @returns {Layers}
 */
export function loadLayers(file) {
  const json = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(json.tools) || typeof json.packages !== 'object' || json.packages === null)
    throw new Error(`${file}: expected { "tools": [patterns], "packages": { name: { dir, uses } } }`);
  const packages = new Map();
  for (const [name, entry] of Object.entries(json.packages)) {
    if (typeof entry?.dir !== 'string' || !Array.isArray(entry.uses))
      throw new Error(`${file}: ${name} needs "dir" (a folder) and "uses" (a list of package names)`);
    packages.set(name, { dir: entry.dir, uses: [...entry.uses], planned: entry.planned === true });
  }
  const { layersOf, duplicates } = parseFolderLayers(file, json.folders);
  return { tools: json.tools, packages, folders: layersOf, duplicateFolders: duplicates };
}

/**
 * Whether a workspace folder is a dev tool (matched by one of the `tools` patterns).
 *
 * @param {string[]} tools
 * @param {string} dir
 */
export function isToolDir(tools, dir) {
  return tools.some((pattern) =>
    pattern.endsWith('/*')
      ? dir.startsWith(pattern.slice(0, -1)) && !dir.slice(pattern.length - 1).includes('/')
      : dir === pattern,
  );
}

/** The short name of a package in tables and messages: `@enginekit/mrr` → `mrr`. */
export const shortName = (name) => name.replace(/^@enginekit\//, '');

/**
 * The Markdown tables of layers that docs/architecture.md carries between its layer markers: the
 * arrows between packages, then the folder layers inside packages.
 *
 * @param {Layers} layers
 */
export function layersTable(layers) {
  const rows = ['| package | folder | may depend on |', '|---|---|---|'];
  for (const [name, layer] of layers.packages) {
    const uses = layer.uses.length === 0 ? '—' : layer.uses.map((u) => `\`${shortName(u)}\``).join(', ');
    const label = layer.planned ? `\`${name}\` (planned)` : `\`${name}\``;
    rows.push(`| ${label} | \`${layer.dir}\` | ${uses} |`);
  }
  const tools = layers.tools.map((t) => `\`${t}\``).join(', ');
  rows.push('');
  rows.push(
    `Every package may also use the dev tools in ${tools} (presets and scripts); the tools use only each other.`,
  );
  if (layers.folders.size > 0) {
    rows.push('');
    rows.push(
      'Inside a package the folders of its source root are layered too, top first: a folder imports only the folders of the layers below its own (never one beside it or above it, `import type` included) and the packages its package may use.',
    );
  }
  for (const [name, folders] of layers.folders) {
    const dir = layers.packages.get(name)?.dir ?? '?';
    rows.push('');
    rows.push(`\`${name}\` (\`${dir}/${folders.root}\`):`);
    rows.push('');
    rows.push(folderLayersTable(folders));
  }
  return rows.join('\n');
}

export const docsBegin =
  '<!-- layers:begin (generated from docs/layers.json by tooling/scripts/check-layers.mjs --write) -->';
export const docsEnd = '<!-- layers:end -->';

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A fenced code block of a README that is run as a program. */
export interface ExampleBlock {
  /** `js` or `ts` (after folding `javascript`, `mjs`, `typescript`, `mts`). */
  readonly lang: 'js' | 'ts';
  /** 1-based line of the opening fence in the README. */
  readonly line: number;
  /** The block's text, without the fences (and without the fence's indentation). */
  readonly code: string;
  /** The TEXT of every `// prints: TEXT` comment, in order, with the block line it is on. */
  readonly prints: readonly { readonly text: string; readonly line: number }[];
}

/** A README and the folder its examples run in (its package's folder). */
export interface Readme {
  /** Path relative to the repository root, `/`-separated (`packages/mrr/README.md`). */
  readonly path: string;
  /** Absolute folder of the README: examples run there so `@enginekit/<self>` resolves. */
  readonly dir: string;
}

const runnable: Record<string, 'js' | 'ts'> = {
  js: 'js',
  javascript: 'js',
  mjs: 'js',
  ts: 'ts',
  typescript: 'ts',
  mts: 'ts',
};

const printsComment = /\/\/\s*prints:\s?(.*)$/;

/**
 * The runnable blocks of a Markdown text: every fence (``` or ~~~, three or more) whose info
 * string starts with a JavaScript or TypeScript language name. Other blocks (`sh`, `text`, none)
 * are documentation and are skipped.
 */
export function extractBlocks(markdown: string): ExampleBlock[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: ExampleBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)(.*)$/.exec(lines[i]!);
    // A backtick fence's info string holds no backtick (CommonMark): "```` ```js ````" is inline code.
    if (!open || (open[2]![0] === '`' && open[4]!.includes('`'))) continue;
    const [, indent = '', fence = '', info = ''] = open;
    const close = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    let end = i + 1;
    while (end < lines.length && !close.test(lines[end]!)) end++;
    const lang = runnable[info.toLowerCase()];
    if (lang) {
      const body = lines.slice(i + 1, end).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l));
      const prints = body.flatMap((l, k) => {
        const m = printsComment.exec(l);
        return m ? [{ text: m[1]!.trimEnd(), line: k + 1 }] : [];
      });
      blocks.push({ lang, line: i + 1, code: body.join('\n'), prints });
    }
    i = end;
  }
  return blocks;
}

/** The nearest folder at or above `from` holding pnpm-workspace.yaml (the repository root). */
export function workspaceRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no pnpm-workspace.yaml at or above ${from}`);
  }
}

/** The READMEs whose examples are run: the root one, and those of `packages/*` and `apps/*`. */
export function findReadmes(root: string): Readme[] {
  const found: Readme[] = [];
  if (existsSync(join(root, 'README.md'))) found.push({ path: 'README.md', dir: root });
  for (const group of ['packages', 'apps']) {
    if (!existsSync(join(root, group))) continue;
    for (const entry of readdirSync(join(root, group), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const dir = join(root, group, entry.name);
      if (existsSync(join(dir, 'README.md'))) found.push({ path: `${group}/${entry.name}/README.md`, dir });
    }
  }
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The blocks of one README file. */
export function readmeBlocks(readme: Readme): ExampleBlock[] {
  return extractBlocks(readFileSync(join(readme.dir, 'README.md'), 'utf8'));
}

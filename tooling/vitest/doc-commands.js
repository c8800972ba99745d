// The command lines of the repository's documentation, for tests that check each documented
// command against the command's own argument parser: the shell blocks (```sh, ```bash,
// ```shell) of docs/*.md and of the READMEs of the root, packages/* and apps/*.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** docs/*.md and the READMEs of the root, the packages and the apps, under `root`. */
export function documents(root) {
  const out = [join(root, 'README.md')];
  for (const d of readdirSync(join(root, 'docs'))) if (d.endsWith('.md')) out.push(join(root, 'docs', d));
  for (const top of ['packages', 'apps'])
    for (const d of readdirSync(join(root, top), { withFileTypes: true }))
      if (d.isDirectory()) out.push(join(root, top, d.name, 'README.md'));
  return out.filter((f) => existsSync(f));
}

/** The lines of a document's shell blocks (a trailing backslash joins the next), with line numbers. */
export function shellLines(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const out = [];
  let inside = false;
  let pending = null;
  for (const [i, l] of lines.entries()) {
    if (/^```/.test(l)) {
      inside = !inside && /^```(sh|bash|shell)\s*$/.test(l);
      continue;
    }
    if (!inside) continue;
    const text = pending === null ? l : `${pending.text} ${l.trim()}`;
    const line = pending?.line ?? i + 1;
    if (/\\$/.test(text)) {
      pending = { line, text: text.slice(0, -1) };
      continue;
    }
    pending = null;
    out.push({ line, text });
  }
  return out;
}

/**
 * The words of each simple command of a shell line, quotes removed: a comment, a pipe, `&&`,
 * `;`, `&` and redirections (with their targets) end a command.
 */
export function simpleCommands(text) {
  const out = [];
  let words = [];
  let word = null;
  const end = () => {
    if (word !== null) words.push(word);
    word = null;
  };
  const next = () => {
    end();
    if (words.length > 0) out.push(words);
    words = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1);
      const j = close < 0 ? text.length : close;
      word = (word ?? '') + text.slice(i + 1, j);
      i = j;
    } else if (c === ' ' || c === '\t') end();
    else if (c === '#' && word === null) break;
    else if (c === '|' || c === ';' || c === '&') next();
    else if (c === '>' || c === '<') {
      next();
      while (text[i + 1] === ' ' || text[i + 1] === '>' || text[i + 1] === '&') i++;
      while (i + 1 < text.length && text[i + 1] !== ' ') i++;
    } else word = (word ?? '') + c;
  }
  next();
  return out;
}

/**
 * Every documented invocation of `program` (after environment assignments, through `pnpm` or a
 * path ending in `/program`): where it is, the line, and its arguments, with a synopsis's
 * brackets taken off (`[--sf N]` checks `--sf N`).
 */
export function documentedCommands(root, program) {
  const found = [];
  for (const f of documents(root))
    for (const { line, text } of shellLines(f))
      for (const words of simpleCommands(text)) {
        let i = 0;
        while (i < words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[i])) i++;
        if (words[i] === 'pnpm') i++;
        const cmd = words[i];
        if (cmd === undefined || (cmd !== program && !cmd.endsWith(`/${program}`))) continue;
        const argv = words.slice(i + 1).map((w) => w.replace(/^\[+|\]+$/g, ''));
        found.push({ where: `${relative(root, f)}:${line}`, text: text.trim(), argv });
      }
  return found;
}

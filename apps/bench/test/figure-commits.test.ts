// Figures in the docs name the commit that produced them, and that commit exists: every section of
// docs/results.md names one, and every commit named after "commit" / "commits" (alone, in a range
// "a–b" or a pair "a and b") in the docs and READMEs resolves in this repository's history.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');

/** The docs and READMEs that carry measured figures. */
function documents(): string[] {
  const out = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f));
  out.push('README.md');
  for (const dir of ['apps', 'packages'])
    for (const name of readdirSync(join(root, dir))) {
      const readme = join(dir, name, 'README.md');
      try {
        readFileSync(join(root, readme));
        out.push(readme);
      } catch {
        // a folder without a README
      }
    }
  return out;
}

/** Commits named in `text`: "commit abc1234", "commits abc1234–def5678", "commits abc1234 and def5678". */
export function namedCommits(text: string): string[] {
  const out: string[] = [];
  const re = /\bcommits? ([0-9a-f]{7,40})\b(?:\s*[–-]\s*([0-9a-f]{7,40})\b| and ([0-9a-f]{7,40})\b)?/g;
  for (const m of text.matchAll(re)) for (const sha of m.slice(1)) if (sha !== undefined) out.push(sha);
  return out;
}

const exists = (sha: string): boolean => {
  try {
    execFileSync('git', ['rev-parse', '--verify', '--quiet', `${sha}^{commit}`], {
      cwd: root,
      stdio: 'pipe',
    });
    return true;
  } catch {
    return false;
  }
};

describe('commits named beside figures', () => {
  it('reads single commits, ranges and pairs', () => {
    expect(
      namedCommits('at commit 2900c70, commits 6bd3aaf–c7d7aaf and commits 10e3d18 and 79941bd'),
    ).toEqual(['2900c70', '6bd3aaf', 'c7d7aaf', '10e3d18', '79941bd']);
    expect(namedCommits('no commit here, a hash deadbeef alone')).toEqual([]);
    expect(exists('0000000')).toBe(false);
  });

  it('every section of docs/results.md names the commit it was measured at', () => {
    const sections = readFileSync(join(root, 'docs', 'results.md'), 'utf8')
      .split(/^## /m)
      .slice(1);
    expect(sections.length).toBeGreaterThan(5);
    const unnamed = sections.filter((s) => namedCommits(s).length === 0).map((s) => s.split('\n')[0]);
    expect(unnamed).toEqual([]);
  });

  it('every commit the docs name exists', () => {
    const missing: string[] = [];
    let named = 0;
    for (const doc of documents())
      for (const sha of namedCommits(readFileSync(join(root, doc), 'utf8'))) {
        named++;
        if (!exists(sha)) missing.push(`${doc}: ${sha}`);
      }
    expect(named).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});

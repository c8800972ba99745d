import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BlockRun,
  type ExampleBlock,
  extractBlocks,
  findReadmes,
  runBlock,
  runProblems,
  strayPrograms,
  workspaceRoot,
} from '../src/index.js';

const fixture = fileURLToPath(new URL('./fixtures/example-pkg', import.meta.url));
const markdown = readFileSync(join(fixture, 'README.md'), 'utf8');
const blocks = extractBlocks(markdown);
const lineOf = (text: string) => markdown.split('\n').findIndex((l) => l.includes(text)) + 1;

// Every run must leave the package folder as it found it, and remove the private TMPDIR it
// made (each is made under os.tmpdir(), pointed here at a scratch folder for this file).
const before = readdirSync(fixture).sort();
const scratch = mkdtempSync(join(tmpdir(), 'readme-harness-'));
const savedTmpdir = process.env.TMPDIR;
beforeAll(() => {
  process.env.TMPDIR = scratch;
});
afterAll(() => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  const left = readdirSync(scratch);
  rmSync(scratch, { recursive: true, force: true });
  expect(left).toEqual([]);
  expect(readdirSync(fixture).sort()).toEqual(before);
});

describe('extractBlocks', () => {
  it('finds the js and ts blocks with their fence lines and // prints: lines, skipping sh and text', () => {
    expect(blocks.map((b) => [b.lang, b.line])).toEqual([
      ['js', lineOf('```js') /* the first js fence */],
      ['ts', lineOf('```ts')],
      ['js', lineOf("throw new Error('boom')") - 1],
      ['js', lineOf('// prints: 3') - 1],
      ['js', lineOf("console.log('first')") - 1],
      ['js', lineOf("writeFileSync(join(tmpdir(), 'left-behind.txt')") - 5],
      ['js', lineOf('setInterval') - 1],
      ['ts', lineOf('const x: number = ;') - 1],
      ['js', lineOf("writeFileSync('stray.txt', 'x');") - 3],
      ['ts', lineOf('const n: number = 7;') - 1],
    ]);
    expect(blocks[0]!.prints).toEqual([
      { text: '42', line: lineOf('// prints: 42') - blocks[0]!.line },
      { text: 'second', line: lineOf('// prints: second') - blocks[0]!.line },
    ]);
    expect(blocks[0]!.code.split('\n')[0]).toBe(
      "import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';",
    );
  });

  it('handles ~~~ fences, longer fences holding ```, indented fences and an unclosed block', () => {
    const md = [
      '~~~ts',
      'const a: number = 1;',
      '~~~',
      '````js',
      '```',
      'inside',
      '````',
      '- item',
      '  ```mjs',
      '  console.log(1); // prints: 1',
      '  ```',
      'Inline: ```` ```ts ```` is not a fence.',
      '  ```` ```text ```` neither.',
      '```js',
      'console.log("open");',
    ].join('\n');
    expect(extractBlocks(md)).toEqual([
      { lang: 'ts', line: 1, code: 'const a: number = 1;', prints: [] },
      { lang: 'js', line: 4, code: '```\ninside', prints: [] },
      { lang: 'js', line: 9, code: 'console.log(1); // prints: 1', prints: [{ text: '1', line: 1 }] },
      { lang: 'js', line: 14, code: 'console.log("open");', prints: [] },
    ]);
  });
});

describe('runBlock and runProblems on the fixture README', () => {
  const runs: BlockRun[] = [];
  const problems: string[][] = [];
  beforeAll(async () => {
    for (const [i, block] of blocks.slice(0, 7).entries()) {
      const run = await runBlock(block, { dir: fixture, timeoutMs: i === 6 ? 1500 : 30_000 });
      runs.push(run);
      problems.push(runProblems(block, run, { dir: fixture }));
    }
  }, 120_000);

  it('passes a block that imports its own package by name and cleans up', () => {
    expect(problems[0]).toEqual([]);
    expect(runs[0]!.stdout).toBe('42\nsecond line\n');
  });

  it('strips the types of a ts block', () => {
    expect(problems[1]).toEqual([]);
    expect(runs[1]!.stdout).toBe('2,4\n');
  });

  it('fails a block that throws, and its stack names the README line', () => {
    expect(problems[2]).toEqual(['exit 1']);
    expect(runs[2]!.stderr).toContain('boom');
    expect(runs[2]!.stderr).toMatch(new RegExp(`\\.mjs:${lineOf("throw new Error('boom')")}\\b`));
  });

  it('fails a wrong // prints: and names its README line', () => {
    expect(problems[3]).toEqual([`README line ${lineOf('// prints: 3')}: stdout lacks "3"`]);
  });

  it('fails // prints: lines whose texts appear in the wrong order', () => {
    expect(problems[4]).toEqual([
      `README line ${lineOf('// prints: first')}: stdout lacks "first" after the previous // prints: line`,
    ]);
  });

  it('fails a block that leaves a file in its TMPDIR, and removes the private TMPDIR anyway', () => {
    expect(problems[5]).toEqual(['left in TMPDIR: left-behind.txt']);
  });

  it('kills a block that outlives its timeout', () => {
    expect(runs[6]!.timedOut).toBe(true);
    expect(problems[6]).toEqual(['timed out (killed)']);
  });

  it('rejects a ts block that does not parse, naming the README line', async () => {
    const line = lineOf('const x: number = ;');
    await expect(runBlock(blocks[7]!, { dir: fixture, readme: 'fixture/README.md' })).rejects.toThrow(
      new RegExp(`^fixture/README\\.md:${line}:\\d+: the block is not a TypeScript program: `),
    );
  });

  it('fails a block that leaves a file in its working directory or names a fixed /tmp path', async () => {
    const block = blocks[8]!;
    try {
      const run = await runBlock(block, { dir: fixture });
      expect(run.status).toBe(0);
      expect(runProblems(block, run)).toEqual([
        'left in the package folder: stray.txt',
        `README line ${lineOf("const fixed = '/tmp/not-private'")}: a fixed /tmp path; make a folder with mkdtempSync(join(tmpdir(), ...)) and remove it in finally`,
      ]);
    } finally {
      rmSync(join(fixture, 'stray.txt'), { force: true });
    }
  });

  it("maps a ts block's stack trace back to the README line", async () => {
    const run = await runBlock(blocks[9]!, { dir: fixture, readme: 'fixture/README.md' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('ts boom 7');
    expect(run.stderr).toContain(`${join(fixture, 'README.md')}:${lineOf('throw new Error(`ts boom')}`);
  });

  it('removes its temp program from the package folder after every run', () => {
    expect(strayPrograms(fixture)).toEqual([]);
  });
});

describe('findReadmes', () => {
  it('lists the root README and those of packages/* and apps/*, nothing deeper', () => {
    const root = mkdtempSync(join(tmpdir(), 'readme-find-'));
    try {
      for (const dir of ['packages/a', 'packages/b', 'apps/x', 'tooling/t', 'packages/a/test/fixtures/f']) {
        mkdirSync(join(root, dir), { recursive: true });
        writeFileSync(join(root, dir, 'README.md'), '# r\n');
      }
      mkdirSync(join(root, 'packages/no-readme'));
      writeFileSync(join(root, 'README.md'), '# root\n');
      expect(findReadmes(root).map((r) => r.path)).toEqual([
        'README.md',
        'apps/x/README.md',
        'packages/a/README.md',
        'packages/b/README.md',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('workspaceRoot', () => {
  it('walks up to the folder holding pnpm-workspace.yaml, and fails where there is none', () => {
    const root = workspaceRoot(fixture);
    expect(readdirSync(root)).toContain('pnpm-workspace.yaml');
    expect(fixture.startsWith(root)).toBe(true);
    expect(() => workspaceRoot(scratch)).toThrow(/no pnpm-workspace\.yaml at or above/);
  });
});

describe('runProblems', () => {
  const block: ExampleBlock = { lang: 'js', line: 10, code: '', prints: [{ text: 'x', line: 2 }] };
  const ok: BlockRun = { status: 0, signal: null, timedOut: false, stdout: 'x\n', stderr: '', leftovers: [] };

  it('reports a kill by signal and the hint when the package is not built', () => {
    expect(runProblems(block, { ...ok, status: null, signal: 'SIGSEGV' })).toEqual(['exit SIGSEGV']);
    const missing = { ...ok, status: 1, stderr: 'Error [ERR_MODULE_NOT_FOUND]: Cannot find module' };
    expect(runProblems(block, missing, { dir: fixture })).toEqual([
      'exit 1',
      'the package has no dist/: run `pnpm build` first',
    ]);
  });
});

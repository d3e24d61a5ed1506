/**
 * The memo layer (src/store/memo.ts): a value is computed once and then read back under the key of the
 * code and its inputs; other inputs, a damaged file or another code is a miss that computes again; the
 * code's identity (codeDigest) changes with any module or YAML data file and with nothing else.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { codeDigest, codeIdentity, derivedDir, memo, memoKey } from '../../src/store/memo.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-memo-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('memo', () => {
  test('computes once, then reads the kept value; other inputs compute again', async () => {
    const store = path.join(root, 'once.store.json');
    let runs = 0;
    const compute = () => ({ runs: ++runs, text: '二' });
    expect(await memo(store, 'x', { day: 1 }, compute)).toEqual({ runs: 1, text: '二' });
    expect(await memo(store, 'x', { day: 1 }, compute)).toEqual({ runs: 1, text: '二' });
    expect(await memo(store, 'x', { day: 2 }, compute)).toEqual({ runs: 2, text: '二' });
    expect(runs).toBe(2);
  });

  test('a damaged or torn file is computed again and kept anew', async () => {
    const store = path.join(root, 'damaged.store.json');
    let runs = 0;
    const compute = async () => ++runs;
    await memo(store, 'x', 'in', compute);
    const file = path.join(derivedDir(store), 'x.json');
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.replace(/1\s*$/, '7'));
    expect(await memo(store, 'x', 'in', compute)).toBe(2);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').slice(0, 20));
    expect(await memo(store, 'x', 'in', compute)).toBe(3);
    expect(await memo(store, 'x', 'in', compute)).toBe(3);
  });

  test('a value `keep` refuses is not kept', async () => {
    const store = path.join(root, 'refused.store.json');
    let runs = 0;
    const compute = () => ++runs;
    await memo(store, 'x', null, compute, () => false);
    expect(await memo(store, 'x', null, compute, () => false)).toBe(2);
    expect(fs.existsSync(path.join(derivedDir(store), 'x.json'))).toBe(false);
  });

  test('the key holds the code: the same inputs under this process’s code identity, other inputs another key', () => {
    expect(codeIdentity()).toMatch(/^[0-9a-f]{64}$/);
    expect(codeIdentity()).toBe(codeIdentity());
    expect(memoKey({ a: 1 })).toBe(memoKey({ a: 1 }));
    expect(memoKey({ a: 1 })).not.toBe(memoKey({ a: 2 }));
    expect(memoKey({ a: 1 })).not.toBe(memoKey([{ a: 1 }]));
  });
});

describe('codeDigest: the identity of the code run from src/ or dist/', () => {
  const tree = path.join(root, 'pkg');
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(tree, rel)), { recursive: true });
    fs.writeFileSync(path.join(tree, rel), text);
  };
  write('src/votes/count.ts', 'export const first = (a: number, b: number) => a - b;\n');
  write('src/game/presets/m107.yaml', 'sheriffWeight: 1.5\n');
  write('src/violations/words/x.txt', '词\n');
  write('dist/votes/count.js', 'export const first = (a, b) => a - b;\n');
  write('dist/votes/count.d.ts', 'export declare const first: (a: number, b: number) => number;\n');
  const src = () => codeDigest(path.join(tree, 'src'), '.ts', path.join(tree, 'src'));
  const dist = () => codeDigest(path.join(tree, 'dist'), '.js', path.join(tree, 'src'));

  test('a changed module or YAML data file changes it; a file neither code nor YAML does not', () => {
    const [s0, d0] = [src(), dist()];
    expect(src()).toBe(s0);
    write('src/votes/count.ts', 'export const first = (a: number, b: number) => b - a;\n');
    const s1 = src();
    expect(s1).not.toBe(s0);
    expect(dist()).toBe(d0); // (dist/ runs its own .js)
    write('dist/votes/count.js', 'export const first = (a, b) => b - a;\n');
    const d1 = dist();
    expect(d1).not.toBe(d0);
    write('src/game/presets/m107.yaml', 'sheriffWeight: 2.5\n');
    expect(src()).not.toBe(s1);
    expect(dist()).not.toBe(d1);
    const [s2, d2] = [src(), dist()];
    write('src/violations/words/x.txt', '别的词\n'); // an input, keyed where it is read
    write('dist/votes/count.d.ts', '// types only\n');
    expect([src(), dist()]).toEqual([s2, d2]);
  });

  test('a module moved to another folder changes it', () => {
    const before = src();
    fs.mkdirSync(path.join(tree, 'src/tally'), { recursive: true });
    fs.renameSync(path.join(tree, 'src/votes/count.ts'), path.join(tree, 'src/tally/count.ts'));
    expect(src()).not.toBe(before);
  });
});

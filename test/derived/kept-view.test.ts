/**
 * A report's view kept as printed (src/derived/kept-view.ts): read back text for text (one, or an HTML
 * page's two around its time, any UTF-8), and not at all under another day key or view, nor when the
 * file is torn or damaged.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { keepView, readKeptView, type ViewSpec } from '../../src/derived/kept-view.js';
import { derivedDir } from '../../src/store/memo.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-kept-view-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const storePath = path.join(root, 'game.store.json');
const json: ViewSpec = { view: 'json', color: false, ledger: true };
const html: ViewSpec = { view: 'html', color: false, ledger: false };

test('a view is read back as kept, under its day key and view only', () => {
  const texts = ['{"flags":[{"snippet":"我发誓 — “引号” 😀 \\u0000"}]}\n'];
  keepView(storePath, 3, json, 'k1', texts);
  expect(readKeptView(storePath, 3, json, 'k1')).toEqual(texts);
  expect(readKeptView(storePath, 3, json, 'k2')).toBeUndefined();
  expect(readKeptView(storePath, 3, { ...json, ledger: false }, 'k1')).toBeUndefined();
  expect(readKeptView(storePath, 4, json, 'k1')).toBeUndefined();
  const page = ['<footer><p>bansha · ', '（Asia/Shanghai）</p></footer>\n', ''];
  keepView(storePath, 3, html, 'k1', page);
  expect(readKeptView(storePath, 3, html, 'k1')).toEqual(page);
  expect(readKeptView(storePath, 3, json, 'k1')).toEqual(texts); // each view its own file
});

test('a torn or damaged view is not read', () => {
  keepView(storePath, 5, json, 'k', ['第五日'.repeat(1000)]);
  const file = path.join(derivedDir(storePath), fs.readdirSync(derivedDir(storePath)).find((f) => f.includes('day5'))!);
  const whole = fs.readFileSync(file);
  fs.writeFileSync(file, whole.subarray(0, whole.length - 7));
  expect(readKeptView(storePath, 5, json, 'k')).toBeUndefined();
  const flipped = Buffer.from(whole);
  flipped[flipped.length - 2] ^= 1;
  fs.writeFileSync(file, flipped);
  expect(readKeptView(storePath, 5, json, 'k')).toBeUndefined();
  fs.writeFileSync(file, whole);
  expect(readKeptView(storePath, 5, json, 'k')).toEqual(['第五日'.repeat(1000)]);
});

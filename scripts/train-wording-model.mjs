#!/usr/bin/env node
// Writes src/violations/data/wording-model.txt: the learned second opinion on banned wording (issue 36,
// src/violations/learned.ts), trained on the tune sets of fixtures/wording/ and, where ../shared is
// beside the checkout, the everyday sentences' training half and the rule posts' sentences
// (src/bench/wording-learned.ts). Deterministic: the same sets and options give the same file; the
// header records the sets' digests and the options. Never reads fixtures/wording/independent*.tsv.
// Usage: npm run build && node scripts/train-wording-model.mjs [--threshold 0.9] [--l2 1e-4] [--epochs 12] [--rate 0.2] [--bits 16] [--seed 36]
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const { trainedModelText } = await import(join(root, 'dist', 'bench', 'wording-learned.js'));
const { DEFAULT_TRAINING, WORDING_MODEL_FILE } = await import(join(root, 'dist', 'violations', 'learned.js'));

const opts = { ...DEFAULT_TRAINING };
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i += 2) {
  const key = args[i].replace(/^--/, '');
  if (!(key in opts) || args[i + 1] === undefined) throw new Error(`unknown option ${args[i]} (options: ${Object.keys(opts).join(', ')})`);
  opts[key] = Number(args[i + 1]);
}
// (packagePath: src/violations/data/ whether run from src or dist.)
const text = trainedModelText(opts);
writeFileSync(WORDING_MODEL_FILE, text);
console.log(`${WORDING_MODEL_FILE}: ${text.length} characters`);

#!/usr/bin/env node
// Writes src/violations/data/syllable-frequency.txt: how often a Han character of players' text has
// each reading, per thousand characters, over the everyday set's sentences (everyday-sentences.ts: the
// players' text of the games captured in fixtures/discuz/ and of ../shared/discuz/realworld/'s pages). The pattern index
// reads it only to choose which element of an entry to look for first (the rarest): what the scan
// finds never depends on it. Usage: npm run build && node scripts/syllable-frequency.mjs
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const { everydaySentences } = await import(join(root, 'dist', 'bench', 'everyday-sentences.js'));
const { foldText } = await import(join(root, 'dist', 'violations', 'text-fold.js'));

const counts = new Map();
let hans = 0;
for (const sentence of everydaySentences()) {
  for (const t of foldText(sentence).tokens) {
    if (t.kind !== 'han') continue;
    hans++;
    for (const s of new Set(t.syls)) counts.set(s, (counts.get(s) ?? 0) + 1);
  }
}
const rows = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).filter(([, n]) => (1000 * n) / hans >= 0.05);
const lines = [
  '# How often a Han character of players\' text can be read each way, per thousand characters (a',
  '# character with two readings counts for both), over the everyday set\'s sentences (real forum pages:',
  `# src/bench/everyday-sentences.ts; ${hans} characters); readings under 0.05 left out. Written by scripts/syllable-frequency.mjs.`,
  '# The pattern index (pattern-index.ts) reads it to look for an entry\'s rarest element first; what',
  '# the scan finds never depends on it.',
  ...rows.map(([s, n]) => `${s} ${((1000 * n) / hans).toFixed(2)}`),
];
writeFileSync(join(root, 'src', 'violations', 'data', 'syllable-frequency.txt'), `${lines.join('\n')}\n`);
console.log(`${rows.length} readings over ${hans} characters`);

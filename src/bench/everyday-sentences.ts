/**
 * The everyday-sentence set for banned wording's false-alarm rate (issue #15): the players' own text
 * of real Discuz pages — the third-party pages in ../shared/discuz/realworld/ and the games captured in
 * fixtures/discuz/ — read with the project's parser and cut into sentences. Any flag on one of them is
 * a false alarm unless a person judged the sentence a violation (fixtures/wording/everyday-judged.tsv).
 * Run once to (re)write fixtures/wording/everyday.txt: `node dist/bench/everyday-sentences.js [shared-dir]`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePage } from '../discuz/index.js';
import { packagePath } from '../paths.js';

/** The committed set. */
export const EVERYDAY_FILE = packagePath('fixtures', 'wording', 'everyday.txt');

/** A post text cut into sentences: lines, then 。！？!?；; (the marks kept), short bits dropped. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .flatMap((line) => line.split(/(?<=[。！？!?；;])/))
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => [...s.replace(/[\s\p{P}\p{S}]/gu, '')].length >= 4);
}

function pages(dir: string): string[] {
  const out: string[] = [];
  for (const f of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, f.name);
    if (f.isDirectory()) out.push(...pages(p));
    else if (/\.html$/.test(f.name) && /viewthread|realworld|^t\d|mobile2-t|authorid/.test(p)) out.push(p);
  }
  return out.sort();
}

/** Every distinct sentence of the players' posts in the pages under the given folders. */
export function extractEveryday(dirs: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const dir of dirs) {
    for (const file of pages(dir)) {
      let page;
      try {
        page = parsePage({ bytes: fs.readFileSync(file), url: 'https://forum.example/forum.php?mod=viewthread&tid=1', fetchedAt: new Date(0) });
      } catch {
        continue; // not a thread page (login, errors): nothing to read
      }
      for (const post of page.posts) for (const s of sentencesOf(post.text)) seen.add(s);
    }
  }
  return [...seen];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const shared = process.argv[2] ?? path.resolve(packagePath(), '..', 'shared', 'discuz', 'realworld');
  const list = extractEveryday([shared, packagePath('fixtures', 'discuz')]);
  fs.writeFileSync(EVERYDAY_FILE, `# Everyday forum sentences (src/bench/everyday-sentences.ts): ${list.length} sentences.\n${list.join('\n')}\n`);
  console.log(`${list.length} sentences → ${EVERYDAY_FILE}`);
}

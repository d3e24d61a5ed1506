/**
 * The everyday-sentence set for banned wording's false-alarm rate (issue #15): the players' own text
 * of real Discuz pages — the games the project captured in fixtures/discuz/ and, where ../shared is
 * beside the checkout, the third parties' pages in ../shared/discuz/realworld/ (read there, never
 * copied into the project: issue 37) — read with the project's parser and cut into sentences, when the
 * evaluation runs. Any flag on one of them is a false alarm unless a person judged the sentence a
 * violation (fixtures/wording/everyday-judged.tsv).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parsePage } from '../discuz/index.js';
import { packagePath } from '../paths.js';

/** ../shared/discuz/realworld beside the checkout, or null where it is not there. */
export function sharedRealworld(): string | null {
  const dir = path.resolve(packagePath(), '..', 'shared', 'discuz', 'realworld');
  return fs.existsSync(dir) ? dir : null;
}

/** Where the everyday sentences are read from: our captured games, and the third parties' pages where present. */
export function everydaySources(): string[] {
  const shared = sharedRealworld();
  return [packagePath('fixtures', 'discuz'), ...(shared ? [shared] : [])];
}

let everyday: string[] | undefined;
/** Every distinct sentence of the players' posts on those pages (read once a process). */
export function everydaySentences(): string[] {
  return (everyday ??= extractEveryday(everydaySources()));
}

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

/**
 * Leftovers of the other language in what a command printed: English words in Chinese output (names
 * of things, formats, options, paths and URLs aside), and Chinese in English output once the game's own
 * data (player names, thread titles, post text, the rule posts' words) is taken out.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Words that stay as they are in Chinese output: names of things, formats and units. */
const KEPT = new Set([
  'bansha', 'Discuz', 'BBCode', 'HTML', 'JSON', 'YAML', 'Markdown', 'Chromium', 'Chrome', 'Edge', 'HTTP', 'IANA', 'UTC', 'ISO',
  'pid', 'tid', 'uid', 'fid', 'TID', 'ID', 'TODO', 'LANG', 'BANSHA_USERNAME', 'BANSHA_PASSWORD', 'BANSHA_CHROMIUM',
  'zh', 'en', 'wuhui', 'public', 'm107', 'Asia', 'Shanghai', 'utf', 'gbk', 'mobile', 'reply', 'edit', 'list', 'confirm', 'dismiss',
  'demo', 'init', 'login', 'crawl', 'watch', 'parse', 'tally', 'report', 'cards', 'elevator', 'auction', 'lastwords', 'help', 'store', 'check', 'recover', 'rule', 'accept', 'reject', 'undo', 'close',
  'options', 'command', 'file', 'fileOrUrl', 'pidOrCard', 'lang', 'game', 'n', 'path', 'time', 'text', 'name', 'how', 'dir', 'url', 'tag',
  'zone', 'seconds', 'id', 'day', 'cards', 'activity', 'flags', 'page', 'posts', 'totals', 'result', 'ballots', 'active', 'entries', 'kind', 'sheriff',
  'accelerated', 'standings', 'clean', 'findings', 'written', 'line', 'column', 'requests', 'pages', 'newPosts', 'changedPosts',
  'complete', 'threads', 'color', 'size', 'img', 'quote', 'b', 'G', 'D', 'Q', 'R', 'E', 'C', 'S', 'L', 'M', 'curl', 'pbpaste',
  'px', 'MiB', 'UTF', 'GBK', 'GB', 'FFFD', // units and encodings
  'Ctrl', // a key's name (Ctrl-C)
  'Red', // a colour as the player's [color=Red] wrote it (data, quoted)
  'events', 'mod', 'forumdisplay', 'forum', 'txt', 'yaml', 'html', 'day', 'out', 'N', 'default', 'public', 'redirect', 'goto', 'findpost', 'ptid',
]);

/** The English words left in `text` once URLs, paths, options and placeholders are taken out. */
export function englishLeft(text: string): string[] {
  const stripped = text
    .replace(/\u001b\[[0-9;]*m/g, '')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\S*[/\\]\S*/g, ' ') // paths
    .replace(/[A-Z_]+=\S+/g, ' ') // environment settings (LANG=en_US.UTF-8)
    .replace(/(?<![\w-])--?[a-z][\w-]*/gi, ' ') // options
    .replace(/\S+\.(ya?ml|json|html|txt|php)\b\S*/g, ' ');
  // Rule citations (m107 l.118, 062 l.261) and other letter-and-number codes are not words.
  const words = (stripped.replace(/\bl\.\d+/g, ' ').match(/[A-Za-z][A-Za-z0-9_]*/g) ?? []).filter((w) => !/\d/.test(w));
  return [...new Set(words.filter((w) => !KEPT.has(w) && !/^[A-Z]$/.test(w)))]; // 导演A: a letter in a name
}

const CJK_RUN = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef\u2014\u201c\u201d]+/g;

/**
 * The runs of Chinese in `text` that are no part of the game's own data (`data`: names, titles, post
 * text, the forum's messages — what a player or the forum wrote stays as written in every language).
 * A run found inside a piece of data is data (a table cell may show a cut piece of a post).
 */
export function chineseLeft(text: string, data: Iterable<string>): string[] {
  const all = [...data].join('\n');
  return [...new Set((text.match(CJK_RUN) ?? []).filter((r) => /[\u3400-\u9fff]/.test(r) && !all.includes(r)))];
}

/**
 * What the players and the forum wrote in a game, from its files: the game file's names (players,
 * aliases, substitutes, directors) and, from the evidence store beside it, thread titles, authors and
 * every line of every post. Pieces of two characters or more (a one-character name would match anywhere).
 */
export function playerContent(gameFiles: readonly string[]): string[] {
  const out = new Set<string>();
  const add = (s: unknown) => {
    if (typeof s !== 'string') return;
    for (const piece of s.split(/\n|[，。！？；：、（）「」“”\s]+/)) if ([...piece.trim()].length >= 2 && /[\u3400-\u9fff]/.test(piece)) out.add(piece.trim());
  };
  const walk = (v: unknown): void => {
    if (typeof v === 'string') add(v);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  for (const game of gameFiles) {
    const text = fs.readFileSync(game, 'utf8');
    for (const m of text.matchAll(/[\u3400-\u9fff][\u3400-\u9fffA-Za-z0-9]*/g)) add(m[0]);
    const logs = path.join(path.dirname(game), `${path.basename(game).replace(/\.ya?ml$/, '')}.store.threads`);
    for (const f of fs.existsSync(logs) ? fs.readdirSync(logs).filter((x) => x.endsWith('.jsonl')) : []) {
      for (const line of fs.readFileSync(path.join(logs, f), 'utf8').split('\n')) {
        if (!line) continue;
        try {
          walk(JSON.parse(line.replace(/ [0-9a-f]+$/, ''))); // each line: the JSON, then its checksum
        } catch {
          // a checksum layout this reader does not know: the whole line is content
          add(line);
        }
      }
    }
  }
  return [...out];
}

/**
 * Discuz! code in last words (rules-spec §7; m107 l.55 遗言中禁止使用Discuz!代码): every BBCode tag in a
 * last-words text, case-insensitive, with its line and column, for `bansha lastwords FILE`.
 */

/** Tags Discuz X renders (discuzcode + the editor's extras). */
export const DISCUZ_TAGS = [
  'b', 'i', 'u', 's', 'color', 'size', 'font', 'align', 'url', 'email', 'img', 'quote', 'code', 'list', '*',
  'hide', 'free', 'attach', 'attachimg', 'media', 'audio', 'flash', 'table', 'tr', 'td', 'p', 'float', 'indent',
  'backcolor', 'qq', 'sup', 'sub', 'hr', 'password', 'index', 'payto', 'postbg', 'ul', 'ol', 'li', 'strike',
] as const;

export interface CodeFinding {
  tag: string;
  /** The tag as written: "[COLOR=Red]". */
  written: string;
  line: number;
  column: number;
}

const TAG_RE = new RegExp(
  String.raw`\[\s*(\/?)\s*(${DISCUZ_TAGS.map((t) => t.replace('*', '\\*')).join('|')})(\s*=[^\]\n]*)?\s*\]`,
  'gi',
);

/** Every Discuz code tag in the text (full-width brackets are not code: Discuz ignores them). */
export function findDiscuzCode(text: string): CodeFinding[] {
  const out: CodeFinding[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    for (const m of line.matchAll(TAG_RE)) {
      out.push({ tag: m[2].toLowerCase(), written: m[0], line: i + 1, column: [...line.slice(0, m.index)].length + 1 });
    }
  });
  return out;
}

/**
 * 贴证 (rules-spec §7; m107 l.281 禁止在除树洞以外的游戏相关帖内贴出…QQ、站内信息、树洞记录以及网址、附件,
 * 062 l.303 带有格式的相关记录): what in a post looks like pasted evidence — links, images (smilies
 * excepted), attachments, and lines shaped like a chat log ("张三 12:01:33", "2026-11-20 12:01:33 张三",
 * "张三(123456) 12:01"). Words that go with it ([图片], 撤回了一条消息…) are in words/贴证.txt.
 */
import type { Post } from '../discuz/types.js';

export interface EvidenceItem {
  what: 'link' | 'image' | 'attachment' | 'chat-record';
  /** The URL, attachment name or the chat-record lines. */
  value: string;
}

/** Discuz smilies are images too, but never evidence. */
export function isSmilie(url: string): boolean {
  return /static\/image\/smiley\/|[?&]smilieid=|\/smilies?\//i.test(url);
}

const TIME = String.raw`\d{1,2}:\d{2}(?::\d{2})?`;
const DATE = String.raw`(?:\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}日?\s*)`;
// name then time, or time then name; a name is up to 24 non-space-heavy characters, QQ adds (number) or <mail>.
const CHAT_LINE = new RegExp(
  String.raw`^(?:\S.{0,23}?(?:\(\d{5,12}\)|<[^>]+>)?\s+${DATE}?(${TIME})|${DATE}?(${TIME})\s+\S.{0,23})$`,
);

/** Lines of the text that look like a pasted chat record (one with seconds, or two or more). */
export function chatRecordLines(text: string): string[] {
  if (!/\d:\d\d/.test(text)) return []; // every chat line has a time: most posts have none, and are not split
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const hits = lines.filter((l) => CHAT_LINE.test(l));
  const withSeconds = hits.some((l) => /\d{1,2}:\d{2}:\d{2}/.test(l));
  return withSeconds || hits.length >= 2 ? hits : [];
}

/** Everything in the post that looks like pasted evidence. */
export function pastedEvidence(post: Pick<Post, 'text' | 'links' | 'images' | 'attachments'>): EvidenceItem[] {
  const out: EvidenceItem[] = [];
  for (const l of post.links) out.push({ what: 'link', value: l });
  for (const i of post.images) if (!isSmilie(i)) out.push({ what: 'image', value: i });
  for (const a of post.attachments) out.push({ what: 'attachment', value: a.url ?? a.name });
  const chat = chatRecordLines(post.text);
  if (chat.length) out.push({ what: 'chat-record', value: chat.join(' / ') });
  return out;
}

/**
 * A pasted dialogue written out in a post's text (issue 36, 贴证: m107 l.281 聊天记录, 062 l.303 带有格式的相关
 * 记录), which no wording frame finds (a frame never crosses a colon): the construction, and the words.
 * - `timestamped`: a speaker's turn with its time (`22:13 导演：…`, `[22:01] A：…`, `【导演】20:14:33 …`,
 *   `小明 22:10:05 你先跳`);
 * - `turns`: two speakers' turns, one after the other (`他：我是狼。我：？？`, `[狼人群] 老王：刀谁？ 阿青：刀预言`);
 * - `card`: a card's or a notice's fields in brackets (`【身份】预言家【技能】预言`, `【通灵】今晚被指杀的角色为5号`).
 * Game talk clears it: a ballot (投票对象：…, src/votes/ballot.ts), a rule quoted or a format shown
 * (规则, 格式, 例如…), a rule post's own colon lines (`（6）圣徒：选择<杀人>的目标`, `1、邪王：1人`: a numbered
 * item, a skill in <>), a field list (`生日：… 星座：…`).
 */
export interface PastedDialogue {
  construction: 'timestamped' | 'turns' | 'card';
  /** UTF-16 offsets of the dialogue in the text (its first turn to its last turn's words). */
  start: number;
  end: number;
}

/** The construction names a 贴证 hit of a pasted dialogue carries in place of a list entry (wording.ts). */
export const PASTED_DIALOGUE_WORDS = { timestamped: 'pasted-dialogue-timestamped', turns: 'pasted-dialogue-turns', card: 'pasted-card' } as const;
export type PastedDialogueWord = (typeof PASTED_DIALOGUE_WORDS)[PastedDialogue['construction']];
/** Whether a hit's word is a pasted dialogue's construction (not a list entry). */
export function isPastedDialogueWord(word: string): word is PastedDialogueWord {
  return word === PASTED_DIALOGUE_WORDS.timestamped || word === PASTED_DIALOGUE_WORDS.turns || word === PASTED_DIALOGUE_WORDS.card;
}
/** The rule-post lines a pasted dialogue breaks (those words/贴证.txt cites). */
export const PASTED_DIALOGUE_CITES = ['m107:281', '120b:571', '062:303'];

const D_TIME = String.raw`(?<![\d:.])\d{1,2}:\d{2}(?::\d{2})?(?![\d:A-Za-z])`;
const D_DATE = String.raw`(?:(?:\d{4}[-/.年])?\d{1,2}[-/.月]\d{1,2}日?\s*)`;
/** Who speaks in a chat: a pronoun, a seat, a letter, 甲乙, the director; or (NAME) a short name. */
const D_SPEAKER = String.raw`(?:我|他|她|对方|[甲乙丙丁]|[A-Za-z]|\d{1,2}号|(?:导演|法官|主持人?|dy|DY)[A-Za-z甲乙]?)`;
const D_NAME = String.raw`[\p{Script=Han}A-Za-z0-9_]{2,6}`;
/** Where a turn may start: the text's start, white space, sentence punctuation, a bracket's close. */
const D_BEFORE = String.raw`(?<=^|[\s。！？!?；;…】\]"”」:—])`;
/** Field labels and game words that are not speakers (a form, a ballot, a profile, a rule), and seats:
 *  `1号：发言一般。2号：划水` is a player's read of the table, not a chat (a chat names its people). */
const NOT_SPEAKER = /^(?:\d{1,2}号|[一二三四五六七八九十]{1,3}号|投票|改票|对象|理由|格式|时间|地址|网址|链接|注|备注|补充|说明|例|例如|比如|结果|身份|技能|阵营|规则|生日|星座|声优|喜欢|属性|类型|内容|原文|标题|主题|正文|附件|来源|作者|发件人|收件人|物品|价格|底价|关门时间|第.日|总结|结论|理由一|理由二|问题|答案|答|问|总|共|合计|提示|胜利条件|口令|密码|好人|狼坑|存疑|金水|查杀|银水|票型|站边|警上|警下|视角|神|民|狼)$|对象$|理由$|规则$|阵营$|时间$|技能$/u;
/** What follows a field's colon, not a speaker's: seats or numbers listed (好人：二、六、九). */
const LISTED = /^[\d一二三四五六七八九十零〇两号、,，\s]+(?:[；;。]|$)/u;
/** Card and notice fields in brackets. */
const CARD_FIELD = String.raw`(?:身份|角色|技能|阵营|底牌|反馈|通灵|查验|查验结果|验人结果|预言结果|夜间结果|身份牌|身份卡|系统|系统消息|系统提示|私信|通知|树洞)`;
/** Talk about the rules or a format: a dialogue-shaped text is then an example or a quote of the rule. */
const DIALOGUE_GAME_TALK = /投票对象|投票理由|改票对象|改票理由|规则|规定|格式|例如|比如|举例|示例|模板|范例|[<＜][^<>＜＞]{1,8}[>＞]|^\s*[（(]?\d{1,2}[)）、.]/u;

const TIMESTAMPED = [
  // 22:13 导演：…  [22:01] A：…  12/06 21:33 我：…
  new RegExp(String.raw`${D_DATE}?${D_TIME}[\]）)】]?\s*(?:${D_SPEAKER}|【[^【】]{1,8}】|${D_NAME})\s*:\s*\S`, 'u'),
  // 10:03 六号说“我今晚要毒五号”
  new RegExp(String.raw`${D_TIME}\s*(?:${D_SPEAKER}|[一二三四五六七八九十]{1,2}号)\s*(?:说|发|回)\s*[“"「]`, 'u'),
  // 【导演】20:14:33 …  【3号】21:03 今晚…  小明 22:10:05 你…  导演A(10086xxxx) 2026-12-06 23:01:44 …
  // (a bare name needs the seconds, or the director's or a seat's name; what follows is not a deadline's 前/关门)
  new RegExp(String.raw`(?:(?:【[^【】]{1,8}】|\[[^\[\]]{1,8}\]|${D_SPEAKER}\s|${D_NAME}(?:\(\d[\dx]{4,11}\)|<[^<>]+>)\s)\s*${D_DATE}?${D_TIME}|${D_NAME}\s+${D_DATE}?\d{1,2}:\d{2}:\d{2})\s+(?!前|后|之前|之后|以前|以后|左右|截止|关门|开始|结束|到|至|[-~—])\S`, 'u'),
];
const TURN = new RegExp(String.raw`${D_BEFORE}(\[[^\[\]]{1,8}\]\s*)?(${D_SPEAKER}|${D_NAME})\s*:\s*(?=[^\s:])`, 'gu');
const STRONG = new RegExp(`^${D_SPEAKER}$`, 'u');
/** One turn that says who spoke to whom (导演→我：…), or a seat's or a pronoun's words in quotes (6号："我是狼"). */
const ONE_TURN = new RegExp(String.raw`${D_BEFORE}(?:${D_SPEAKER}\s*(?:→|->|=>)\s*${D_SPEAKER}\s*:\s*\S|(?:他|她|对方|\d{1,2}号|[甲乙丙丁])\s*:\s*["“「『]\S)`, 'u');
const CARD = new RegExp(
  [
    // 【身份】预言家【技能】预言; 【查验结果】5号：非村民阵营; 【系统消息】导演已将你的身份设置为…
    String.raw`【${CARD_FIELD}(?:消息|提示|通知)?】\s*[^【】\s]`,
    // a notice in the director's voice: 【导演】你本局的角色是…, 【丘比特】你选择了…, 【M107】您的身份为…
    String.raw`【[^【】]{1,8}】\s*(?:你(?!们)|您|请你|今晚请|今夜请)`,
    // a role's card: 【预言家】预言——游戏日夜晚…, 【猎人】最后一枪——出局后…
    String.raw`【[^【】]{1,6}】[^【】—]{1,12}——\s*\S`,
  ].join('|'),
  'u',
);

/** The pasted dialogue in a text, or null (see PastedDialogue). */
export function pastedDialogue(text: string): PastedDialogue | null {
  if (!/[:：【\]]/.test(text)) return null; // most texts have none of a dialogue's marks: not read
  const found = dialogueIn(text);
  if (!found) return null;
  // Its words: from where it starts to the end of that line.
  const eol = text.indexOf('\n', found.start);
  return { ...found, end: (eol < 0 ? text.length : eol) };
}

function dialogueIn(text: string): PastedDialogue | null {
  const t = text.replace(/：/g, ':').replace(/［/g, '[').replace(/］/g, ']').replace(/（/g, '(').replace(/）/g, ')').replace(/[〖〔]/g, '【').replace(/[〗〕]/g, '】');
  if (DIALOGUE_GAME_TALK.test(t)) return null;
  for (const re of TIMESTAMPED) {
    const m = re.exec(t);
    if (m && /\d:\d/.test(m[0])) return { construction: 'timestamped', start: m.index, end: text.length };
  }
  const turns: Array<{ speaker: string; at: number; content: number; header: boolean }> = [];
  for (const m of t.matchAll(TURN)) {
    const speaker = m[2];
    if (NOT_SPEAKER.test(speaker) || LISTED.test(t.slice(m.index + m[0].length).split(/[；;。\n]/)[0] + '。')) continue;
    turns.push({ speaker, at: m.index, content: m.index + m[0].length, header: !!m[1] });
  }
  // (a chat goes back and forth: someone speaks twice; a list of names each said once is a read of the table)
  const speakers = new Set(turns.map((x) => x.speaker));
  const backAndForth = speakers.size < turns.length;
  for (let i = 1; i < turns.length; i++) {
    const a = turns[i - 1];
    const b = turns[i];
    // Two speakers, each saying something, one after the other; a named pair needs a pronoun or the director in it, or to speak again.
    if (a.speaker === b.speaker || b.at <= a.content) continue;
    // (a chat group's header, [狼人群] 老王：…, names its speakers)
    if (!STRONG.test(a.speaker) && !STRONG.test(b.speaker) && !backAndForth && !a.header) continue;
    return { construction: 'turns', start: a.at, end: text.length };
  }
  const one = ONE_TURN.exec(t);
  if (one) return { construction: 'turns', start: one.index, end: text.length };
  const card = CARD.exec(t);
  if (card) return { construction: 'card', start: card.index, end: text.length };
  return null;
}

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

/**
 * What a thread title says the thread is (第N日讨论帖 / 投票帖 / 警长竞选投票帖 / 对战规则投票帖 / 拍卖贴, 进程帖,
 * 规则帖) and the game tag in front ("[M901]"). Plain text in, plain values out: the board reader
 * (board.ts) and the HTML report's title both use it, without loading the HTML parser.
 */
import { chineseNumeral } from './chinese-numeral.js';

export type ThreadRole = 'discussion' | 'vote' | 'rules' | 'auction' | 'process' | 'rulebook';

/** What a title says the thread is. */
export interface ThreadKind {
  /** The game tag before the name ("[M901]", "[W01]无回之城——"), '' when none. */
  tag: string;
  role: ThreadRole;
  /** The game day for day threads. */
  day: number | null;
}

const DAY = '第\\s*([0-9一二两三四五六七八九十百]+)\\s*[日天]';

/** What a thread title names, or null for a thread that is not part of a game's structure. */
export function classifyTitle(title: string): ThreadKind | null {
  const t = title.normalize('NFKC');
  const day = new RegExp(`^(.*?)${DAY}\\s*(.*)$`).exec(t);
  if (day) {
    const n = /^\d+$/.test(day[2]) ? Number(day[2]) : chineseNumeral(day[2]);
    const rest = day[3];
    const tag = day[1].replace(/[—\-－\s]+$/, '');
    if (n === null) return null;
    if (/对战规则/.test(rest)) return { tag, role: 'rules', day: n };
    if (/拍卖/.test(rest)) return { tag, role: 'auction', day: n };
    if (/投票/.test(rest)) return { tag, role: 'vote', day: n };
    if (/讨论/.test(rest)) return { tag, role: 'discussion', day: n };
    return null;
  }
  const proc = /^(.*?)进程[帖贴]/.exec(t);
  if (proc) return { tag: proc[1].replace(/[—\-－\s]+$/, ''), role: 'process', day: null };
  const rules = /^(.*?)规则[帖贴]/.exec(t);
  if (rules) return { tag: rules[1].replace(/[—\-－\s]+$/, '').replace(/——.*$/, ''), role: 'rulebook', day: null };
  return null;
}


/**
 * `bansha init`'s reading of a day's closing time (关门) from what the director wrote in the first post
 * of the day's thread: `关门时间：11月21日21:00`, `当日21:00关门`, `明晚 21:00 关门`, `2026-11-21 21:00 截止`.
 * The sentence naming 关门 or 截止 is read for a date (full, month-day, or a day word relative to the
 * post: 当日/今日/今晚 the same day, 明日/明晚/次日 the next) and a time (21:00, 21：00, 21点, 21点半, 晚上9点);
 * a sentence with a time but no date is the day the post was made. Nothing read: null, and the draft
 * keeps its guess with a TODO. Pure: text and the post's forum-local date in, a forum-local time out.
 */
import { DateTime } from 'luxon';

/** The closing time read from a first post, with the words it was read from. */
export interface ClosingWords {
  /** Forum-local "YYYY-MM-DD HH:mm". */
  at: string;
  /** The sentence it was read from (trimmed, at most 40 characters). */
  words: string;
}

const SENTENCE = /[^。！？!?\n；;]+/g;
const CLOSING = /关门|截止|结束投票|投票结束/;
const FULL_DATE = /(20\d\d)\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?/;
const MONTH_DAY = /(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]|(?<!\d)(\d{1,2})[-/](\d{1,2})(?![\d:：])/;
const SAME_DAY = /当日|当天|今日|今天|今晚|本日/;
const NEXT_DAY = /明日|明天|明晚|次日|翌日/;
const TIME = /(上午|中午|下午|晚上|今晚|明晚)?\s*(\d{1,2})\s*(?:[:：]\s*(\d{2})|点\s*(半|\d{1,2}\s*分?)?)/;

/**
 * The closing time `text` (a first post's text) states, as forum-local time; `postedOn`: the forum-local
 * date the post was made ("YYYY-MM-DD"), for a date given as a day word or as month and day alone.
 */
export function closingFromText(text: string, postedOn: string): ClosingWords | null {
  const posted = DateTime.fromISO(postedOn, { zone: 'utc' });
  if (!posted.isValid) return null;
  for (const sentence of text.match(SENTENCE) ?? []) {
    if (!CLOSING.test(sentence)) continue;
    const time = clock(sentence);
    if (!time) continue;
    const date = dateOf(sentence, posted);
    if (!date) continue;
    const words = sentence.trim();
    return { at: `${date.toFormat('yyyy-MM-dd')} ${time}`, words: words.length > 40 ? `${words.slice(0, 40)}…` : words };
  }
  return null;
}

/** The sentence's time of day as "HH:mm", or null. */
function clock(sentence: string): string | null {
  // a date's digits are not a time: read the time from what follows the date
  const rest = sentence.replace(FULL_DATE, ' ').replace(MONTH_DAY, ' ');
  const m = TIME.exec(rest);
  if (!m) return null;
  let hour = Number(m[2]);
  const minutes = m[3] !== undefined ? Number(m[3]) : m[4] === '半' ? 30 : m[4] ? Number(/\d+/.exec(m[4])![0]) : 0;
  if (/下午|晚上|今晚|明晚/.test(m[1] ?? '') && hour < 12) hour += 12;
  if (hour > 23 || minutes > 59) return null;
  return `${String(hour).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** The sentence's date, or the post's own day when it names none. */
function dateOf(sentence: string, posted: DateTime): DateTime | null {
  const full = FULL_DATE.exec(sentence);
  if (full) return valid(DateTime.fromObject({ year: Number(full[1]), month: Number(full[2]), day: Number(full[3]) }, { zone: 'utc' }));
  const md = MONTH_DAY.exec(sentence);
  if (md) {
    const month = Number(md[1] ?? md[3]);
    const day = Number(md[2] ?? md[4]);
    // a month before the post's is next year's (a game across the new year)
    const year = month < posted.month - 6 ? posted.year + 1 : posted.year;
    return valid(DateTime.fromObject({ year, month, day }, { zone: 'utc' }));
  }
  if (NEXT_DAY.test(sentence)) return posted.plus({ days: 1 });
  if (SAME_DAY.test(sentence)) return posted;
  return posted;
}

function valid(d: DateTime): DateTime | null {
  return d.isValid ? d : null;
}

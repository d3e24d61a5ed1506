/**
 * Traditional → simplified Chinese (opencc-js, t → cn), one converter built on first use: the
 * banned-wording folder and the acceleration reader both read 申請加速 as 申请加速.
 */
// The t → cn build only: the same dictionaries for this conversion, without the others (the full
// build costs ~150 ms of start-up to every command that counts acceleration requests).
import * as OpenCC from 'opencc-js/t2cn';

let convert: ((s: string) => string) | null = null;

/** `s` with traditional characters (and phrases) in their simplified form. */
export function toSimplified(s: string): string {
  return (convert ??= OpenCC.Converter({ from: 't', to: 'cn' }))(s);
}

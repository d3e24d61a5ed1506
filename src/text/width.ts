/** Display width in a terminal: CJK and full-width characters take two columns. */

const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

export function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += WIDE.test(ch) ? 2 : 1;
  return w;
}

/** `s` followed by spaces up to `width` columns. */
export function padDisplay(s: string, width: number): string {
  return s + ' '.repeat(Math.max(0, width - displayWidth(s)));
}

/** `s` cut to at most `max` columns, with "…" when cut. */
export function cutDisplay(s: string, max: number): string {
  let out = '';
  let w = 0;
  for (const ch of s) {
    const cw = WIDE.test(ch) ? 2 : 1;
    if (w + cw > max - 1) return out + '…';
    out += ch;
    w += cw;
  }
  return out;
}

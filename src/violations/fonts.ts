/**
 * Font checks (rules-spec §7; m107 l.288–289 禁止使用红色字体/放大字体, 062 l.333 与 #FF0000 相近的颜色,
 * 120b l.583–585). A colour is red when its CIEDE2000 difference from #FF0000 is at most the ruleset's
 * redDeltaE (default 10: #E60012 5.9 and OrangeRed 6.4 are red; Crimson 13.8, #CC0000 11.0, DarkRed
 * 23.8 are not). Colours are read as CSS reads them: names (the 40 of Discuz's editor palette and every
 * other CSS name a player can type by hand), #rgb, #rrggbb, rgb()/rgba(). A size is enlarged when a
 * Discuz size number is above maxSize or a CSS size is above maxPx.
 */
import { createRequire } from 'node:module';
import type * as Culori from 'culori';
import type { Color } from 'culori';

// culori's one-file build (the same version's code): its ES entry is ~150 modules, slow to load every run.
const { differenceCiede2000, parse } = createRequire(import.meta.url)('culori/require') as typeof Culori;

/** The colour names Discuz's editor offers (static/js/bbcode.js `coloroptions`), for reference and tests. */
export const DISCUZ_EDITOR_COLORS = [
  'Black', 'Sienna', 'DarkOliveGreen', 'DarkGreen', 'DarkSlateBlue', 'Navy', 'Indigo', 'DarkSlateGray',
  'DarkRed', 'DarkOrange', 'Olive', 'Green', 'Teal', 'Blue', 'SlateGray', 'DimGray', 'Red', 'SandyBrown',
  'YellowGreen', 'SeaGreen', 'MediumTurquoise', 'RoyalBlue', 'Purple', 'Gray', 'Magenta', 'Orange', 'Yellow',
  'Lime', 'Cyan', 'DeepSkyBlue', 'DarkOrchid', 'Silver', 'Pink', 'Wheat', 'LemonChiffon', 'PaleGreen',
  'PaleTurquoise', 'LightBlue', 'Plum', 'White',
] as const;

/** Browser sizes of <font size=1..7> in px (discuz-notes: 10, 13, 16, 18, 24, 32, 48; 7 is the cap). */
export const FONT_SIZE_PX = [10, 13, 16, 18, 24, 32, 48] as const;

const RED: Color = { mode: 'rgb', r: 1, g: 0, b: 0 };
const delta = differenceCiede2000();

/** The colour a font value names, or null when it is not a colour CSS would understand. */
export function parseColor(value: string): Color | null {
  const v = value.trim().replace(/;$/, '').replace(/^color\s*:\s*/i, '').toLowerCase();
  const c = parse(v) ?? (/^[0-9a-f]{3}$|^[0-9a-f]{6}$/.test(v) ? parse(`#${v}`) : undefined);
  return c ?? null;
}

/** A day's posts repeat a handful of colour values: each is read and measured once a run. */
const deltas = new Map<string, number | null>();

/** CIEDE2000 difference from #FF0000, or null when the value is not a colour. */
export function redDeltaE(value: string): number | null {
  let d = deltas.get(value);
  if (d === undefined) {
    const c = parseColor(value);
    if (deltas.size >= 10_000) deltas.clear(); // a long-lived process (watch) stays bounded
    deltas.set(value, (d = c ? delta(RED, c) : null));
  }
  return d;
}

/** True when the value is red or near it under the threshold. */
export function isRed(value: string, threshold: number): boolean {
  const d = redDeltaE(value);
  return d !== null && d <= threshold;
}

export interface SizeReading {
  /** The Discuz size number (1–7), when the value is one. */
  size: number | null;
  /** The size in px (from the number's browser size or the CSS length). */
  px: number | null;
}

/** Reads a size as written: "6", "20px", "15pt", "1.5em". */
export function readSize(value: string): SizeReading {
  const v = value.trim().toLowerCase().replace(/^font-size\s*:\s*/, '').replace(/;$/, '');
  let m = /^(\d{1,2})$/.exec(v);
  if (m) {
    const n = Math.min(7, Math.max(1, Number(m[1])));
    return { size: n, px: FONT_SIZE_PX[n - 1] };
  }
  m = /^(\d+(?:\.\d+)?)\s*(px|pt|em|rem)$/.exec(v);
  if (m) {
    const n = Number(m[1]);
    const px = m[2] === 'px' ? n : m[2] === 'pt' ? (n * 4) / 3 : n * 16;
    return { size: null, px };
  }
  const named: Record<string, number> = { 'x-large': 24, 'xx-large': 32, 'xxx-large': 48, large: 18, larger: 19.2 };
  if (v in named) return { size: null, px: named[v] };
  return { size: null, px: null };
}

/** True when the size is above the normal (size number > maxSize, or px > maxPx). */
export function isEnlarged(value: string, limits: { maxSize: number; maxPx: number }): boolean {
  const r = readSize(value);
  if (r.size !== null) return r.size > limits.maxSize;
  return r.px !== null && r.px > limits.maxPx;
}

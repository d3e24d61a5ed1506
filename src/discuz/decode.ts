/**
 * Bytes to text for Discuz pages. Discuz X3.4 ships GBK, UTF-8 and BIG5 editions, declared in the
 * Content-Type header and a <meta> tag (discuz-notes.md "Charset"). The header wins over the meta tag
 * unless the bytes prove it wrong; an undeclared or wrong declaration is detected and either decoded
 * correctly with a recorded warning or refused with a ParseError — never silent mojibake.
 */
import iconv from 'iconv-lite';
import { ParseError } from './errors.js';
import { t } from '../i18n/index.js';

/** The decoded text, the charset actually used, and what was noticed on the way. */
export interface DecodedBody {
  text: string;
  /** Canonical charset used: "utf-8", "gb18030" (for any GBK/GB2312 declaration), "big5"... */
  charset: string;
  /** What the page declared (header, else meta), canonicalised; null when nothing usable was declared. */
  declared: string | null;
  /** Human-readable notes: header/meta disagreement, a wrong or missing declaration that was corrected. */
  warnings: string[];
}

/** Canonical name for a declared charset label; GBK-family labels decode as GB18030 (a superset). */
export function canonicalCharset(label: string): string | null {
  const l = label.trim().toLowerCase().replace(/^["']|["']$/g, '');
  if (!l) return null;
  if (l === 'utf8' || l === 'utf-8' || l === 'unicode-1-1-utf-8') return 'utf-8';
  if (['gbk', 'gb2312', 'gb18030', 'x-gbk', 'cp936', 'euc-cn', 'csgb2312', 'gb_2312-80', 'windows-936'].includes(l)) {
    return 'gb18030';
  }
  if (l === 'big5' || l === 'big5-hkscs' || l === 'x-x-big5' || l === 'cn-big5') return 'big5';
  return iconv.encodingExists(l) ? l : null;
}

/** The charset parameter of a Content-Type header, raw ("" when present but empty). */
function headerCharset(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const m = /charset\s*=\s*("?)([^";,\s]*)\1/i.exec(contentType);
  return m ? m[2] : undefined;
}

/** The charset of the first <meta charset> / <meta http-equiv content="...charset=..."> in the head. */
function metaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 4096)).toString('latin1');
  const re = /<meta\b[^>]*?\bcharset\s*=\s*(["']?)([^"'\s/>;]*)\1/gi;
  const m = re.exec(head);
  return m ? m[2] : undefined;
}

const utf8Fatal = new TextDecoder('utf-8', { fatal: true });
const utf8Lenient = new TextDecoder('utf-8');

/** The text when the bytes are valid UTF-8, else null. */
function tryUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8Fatal.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Is the whole buffer well-formed UTF-8? A plain scan that stops at the first bad byte: cheap on
 * GBK bodies (which fail within the first CJK character), where a fatal TextDecoder would throw.
 */
function isUtf8(bytes: Uint8Array): boolean {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return false;
    if (i + need >= n) return false;
    let cp = b & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return false;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += need + 1;
  }
  return true;
}

function hasNonAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] > 0x7f) return true;
  return false;
}

/** The charsets Discuz editions serve (canonical names). */
const DISCUZ_CHARSETS = new Set(['utf-8', 'gb18030', 'big5']);

const CJK = /[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]/;
const REPLACEMENT = /\ufffd/g;

function countReplacements(s: string): number {
  return (s.match(REPLACEMENT) ?? []).length;
}

/** Decode with iconv, stripping a BOM. */
function iconvDecode(bytes: Uint8Array, charset: string): string {
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), charset);
}

/** The bytes as GB18030 when they decode with no invalid sequence and hold CJK text (a GBK page), else null. */
function cleanGbk(bytes: Uint8Array): string | null {
  const gb = iconvDecode(bytes, 'gb18030');
  return countReplacements(gb) === 0 && CJK.test(gb) ? gb : null;
}

/**
 * Decode a page body. `contentType` is the HTTP header when known. Throws ParseError when the bytes
 * fit neither the declaration nor any charset Discuz serves (UTF-8, GB18030/GBK).
 */
export function decodeBody(bytes: Uint8Array, contentType?: string, url?: string): DecodedBody {
  const warnings: string[] = [];
  // A UTF-8 BOM settles it.
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    const text = tryUtf8(bytes.subarray(3));
    if (text !== null) return { text, charset: 'utf-8', declared: 'utf-8', warnings };
  }
  const rawHeader = headerCharset(contentType);
  const rawMeta = metaCharset(bytes);
  const fromHeader = rawHeader !== undefined ? canonicalCharset(rawHeader) : null;
  const fromMeta = rawMeta !== undefined ? canonicalCharset(rawMeta) : null;
  if (rawHeader !== undefined && !fromHeader) warnings.push(t('warn.headerCharsetUnknown', rawHeader));
  if (rawMeta !== undefined && !fromMeta) warnings.push(t('warn.metaCharsetUnknown', rawMeta));
  if (fromHeader && fromMeta && fromHeader !== fromMeta) {
    warnings.push(t('warn.charsetsDisagree', fromHeader, fromMeta));
  }
  const declared = fromHeader ?? fromMeta;
  // Discuz editions serve UTF-8, GBK or BIG5 only. A single-byte declaration (ISO-8859-1, windows-1252…)
  // can never be proved wrong by invalid sequences, so it is not trusted: fall back to the other
  // declaration, else detect from the bytes.
  let effective = declared;
  if (declared && !DISCUZ_CHARSETS.has(declared)) {
    effective = fromMeta && DISCUZ_CHARSETS.has(fromMeta) ? fromMeta : null;
    warnings.push(t('warn.notDiscuzCharset', declared, effective));
  }

  if (!hasNonAscii(bytes)) {
    // Pure ASCII reads the same in every charset Discuz serves.
    return { text: utf8Lenient.decode(bytes), charset: effective ?? 'utf-8', declared, warnings };
  }
  if (effective === 'utf-8') {
    const asUtf8 = tryUtf8(bytes);
    if (asUtf8 !== null) return { text: asUtf8, charset: 'utf-8', declared, warnings };
    // Declared UTF-8 but not UTF-8: a GBK page with a wrong declaration?
    if (fromMeta && fromMeta !== 'utf-8') {
      const asMeta = iconvDecode(bytes, fromMeta);
      if (countReplacements(asMeta) === 0) {
        warnings.push(t('warn.utf8ButMeta', fromMeta));
        return { text: asMeta, charset: fromMeta, declared, warnings };
      }
    }
    const gb = cleanGbk(bytes);
    if (gb !== null) {
      warnings.push(t('warn.utf8ButGbk'));
      return { text: gb, charset: 'gb18030', declared, warnings };
    }
    throw new ParseError(t('decode.badUtf8'), url);
  }

  if (effective === null) {
    const asUtf8 = tryUtf8(bytes);
    if (asUtf8 !== null) {
      warnings.push(t('warn.undeclaredUtf8'));
      return { text: asUtf8, charset: 'utf-8', declared, warnings };
    }
    const gb = cleanGbk(bytes);
    if (gb !== null) {
      warnings.push(t('warn.undeclaredGbk'));
      return { text: gb, charset: 'gb18030', declared, warnings };
    }
    throw new ParseError(t('decode.noCharset'), url);
  }

  // Declared a legacy charset (GBK/BIG5...). Valid UTF-8 with CJK in it is almost never legacy text:
  // multi-byte GBK runs essentially never form valid UTF-8 sequences.
  const asUtf8 = isUtf8(bytes) ? utf8Lenient.decode(bytes) : null;
  if (asUtf8 !== null && CJK.test(asUtf8)) {
    warnings.push(t('warn.legacyButUtf8', effective));
    return { text: asUtf8, charset: 'utf-8', declared, warnings };
  }
  const text = iconvDecode(bytes, effective);
  const bad = countReplacements(text);
  if (bad > 0) {
    // A handful of bad sequences can be a user's broken paste; many means the wrong charset.
    if (bad > 8 && bad * 200 > text.length) {
      throw new ParseError(t('decode.badBytes', effective, bad), url);
    }
    warnings.push(t('warn.replaced', bad, effective));
  }
  return { text, charset: effective, declared, warnings };
}

/**
 * What the YAML, JSON and zod parsers say about a director's file, in the director's language. Their
 * own text is English ("Implicit map keys need to be followed by map values at line 3, column 1"):
 * in Chinese the line, the column, what is wrong there and the offending line are given instead; in
 * English the library's own sentence is kept, with the offending line.
 */
import { readFileSync } from 'node:fs';
import type { YAMLError } from 'yaml';
import type { z } from 'zod';
import { UserError } from '../errors.js';
import { language, t } from './index.js';

/** The 1-based line and column of a character offset in `text`, and that line's text. */
function lineAt(text: string, offset: number): { line: number; col: number; lineText: string } {
  const at = Math.max(0, Math.min(offset, text.length));
  const start = at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
  const end = text.indexOf('\n', at);
  const line = text.slice(0, start).split('\n').length;
  return { line, col: at - start + 1, lineText: text.slice(start, end < 0 ? text.length : end).replace(/\r$/, '') };
}

/** A line as it is quoted in a message: trimmed, cut at 80 characters, control characters shown as \uXXXX. */
function quoted(lineText: string): string {
  const s = lineText.trim();
  const cut = s.length > 80 ? `${s.slice(0, 80)}…` : s;
  return cut.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const JSON_NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

/**
 * Where JSON.parse fails when its message does not say (Node 20: "Unexpected token '}', … is not valid
 * JSON" has no position): the offset where a strict reading of the JSON grammar stops.
 */
function errorOffset(s: string): number {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const ws = () => {
    while (i < s.length && ' \t\n\r'.includes(s[i])) i++;
  };
  const word = (w: string) => (s.startsWith(w, i) ? (i += w.length) : fail());
  const string = () => {
    for (i++; s[i] !== '"'; i++) {
      if (i >= s.length || s.charCodeAt(i) < 0x20) fail();
      if (s[i] !== '\\') continue;
      i++;
      if (s[i] === 'u' && /^[0-9a-fA-F]{4}$/.test(s.slice(i + 1, i + 5))) i += 4;
      else if (!'"\\/bfnrt'.includes(s[i] ?? 'x')) fail();
    }
    i++;
  };
  const items = (close: string, item: () => void) => {
    i++;
    ws();
    if (s[i] === close) return void i++;
    for (;;) {
      item();
      ws();
      if (s[i] === close) return void i++;
      if (s[i] !== ',') fail();
      i++;
    }
  };
  const value = (): void => {
    ws();
    const c = s[i];
    if (c === '{') {
      return items('}', () => {
        ws();
        if (s[i] !== '"') fail();
        string();
        ws();
        if (s[i] !== ':') fail();
        i++;
        value();
      });
    }
    if (c === '[') return items(']', value);
    if (c === '"') return string();
    if (c === 't' || c === 'f' || c === 'n') return void word(c === 't' ? 'true' : c === 'f' ? 'false' : 'null');
    JSON_NUMBER.lastIndex = i;
    const m = JSON_NUMBER.exec(s);
    if (!m || !m[0]) fail();
    i += m![0].length;
  };
  try {
    value();
    ws();
    return i < s.length ? i : s.length;
  } catch (at) {
    if (typeof at === 'number') return at;
    throw at;
  }
}

/** One YAML error of `source` (parseDocument's `errors[i]`): where, what, and the offending line. */
export function yamlProblem(e: YAMLError, source: string): string {
  const { line, col, lineText } = lineAt(source, e.pos[0]);
  const library = e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  const comma = missingComma(e, lineText, col);
  const what = comma !== null ? t('yaml.missingComma', comma, library) : language() === 'zh' ? t('yaml.code', e.code) : library;
  return t('parser.problem', line, col, what, quoted(lineText));
}

/**
 * The items written without a comma between them, when that is what `e` is about: inside [ ] or { } on
 * the line, `discussion: 2 vote: 3` reads as a block in the brackets (BLOCK_IN_FLOW), `"a" b` as a
 * missing , or : (MISSING_CHAR) and `{a: "1" b: 2}` as an unexpected scalar (UNEXPECTED_TOKEN) — each
 * a comma left out, which yaml's words do not say. The text from the column to the next , ] or }.
 */
function missingComma(e: YAMLError, lineText: string, col: number): string | null {
  const before = lineText.slice(0, col - 1).replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, '');
  const open = (before.match(/[[{]/g) ?? []).length - (before.match(/[\]}]/g) ?? []).length;
  const flowItem = e.code === 'BLOCK_IN_FLOW' || (e.code === 'MISSING_CHAR' && /between flow/.test(e.message)) || (e.code === 'UNEXPECTED_TOKEN' && open > 0);
  if (!flowItem || open <= 0) return null;
  // From the item before the column (BLOCK_IN_FLOW points at the value, the others just past it) to the next separator.
  const start = Math.max(...[',', '[', '{'].map((c) => lineText.lastIndexOf(c, col - 2))) + 1;
  const end = lineText.slice(col - 1).search(/[,\]}]/);
  const items = lineText.slice(start, end < 0 ? lineText.length : col - 1 + end).trim();
  return items.length > 60 ? `${items.slice(0, 60)}…` : items;
}

/** A JSON.parse failure on `text`: where (from V8's "at position N"; the end for a cut file), what, the line. */
export function jsonProblem(err: unknown, text: string): string {
  const message = err instanceof Error ? err.message : String(err);
  const pos = /position (\d+)/.exec(message);
  const { line, col, lineText } = lineAt(text, pos ? Number(pos[1]) : errorOffset(text));
  const what = language() === 'zh' ? t('json.problem', message) : message.replace(/ in JSON at position \d+.*$/, '');
  return t('parser.problem', line, col, what, quoted(lineText));
}

/** A path in a file as a field name: days[1].closes. */
export function fieldPath(p: readonly PropertyKey[]): string {
  return p.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i ? '.' : ''}${String(k)}`)).join('') || t('game.topLevel');
}

/** What zod says of one issue. zod's zh-CN locale leaves some type names English (期望 string，实际接收 undefined): those are said here. */
export function zodIssueText(issue: z.core.$ZodIssue, raw: unknown): string {
  if (issue.code !== 'invalid_type' || language() !== 'zh') return issue.message;
  let value: unknown = raw;
  for (const k of issue.path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[k] : undefined;
  const got = value === undefined ? 'undefined' : value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return value === undefined ? t('zod.missing', t('zod.type', issue.expected)) : t('zod.wrongType', t('zod.type', issue.expected), t('zod.type', got));
}

/** The first issue of a zod failure on `raw`: the field path and what is wrong there. */
export function zodProblem(error: z.ZodError, raw: unknown): string {
  const issue = error.issues[0];
  if (issue.code === 'invalid_union') return unionProblem(issue, issue.path, raw);
  return `${fieldPath(issue.path)}: ${zodIssueText(issue, raw)}`;
}

/**
 * A value none of a union's members accept (zod: "Invalid input", nothing more), with the reason: when
 * the value is of one member's type (a seat written as {name, uid}), that member's own first issue at
 * its full path — an unknown key first, as it names the typo (`nmae`) —; when it is of none of their
 * types, which types would do and which it is.
 */
function unionProblem(issue: z.core.$ZodIssueInvalidUnion, at: readonly PropertyKey[], raw: unknown): string {
  const wrongType = (i: z.core.$ZodIssue) => i.code === 'invalid_type' && i.path.length === 0;
  const fitting = issue.errors.find((branch) => branch.length > 0 && !(branch.length === 1 && wrongType(branch[0])));
  if (fitting) {
    const inner = fitting.find((i) => i.code === 'unrecognized_keys') ?? fitting[0];
    const path = [...at, ...inner.path];
    if (inner.code === 'invalid_union') return unionProblem(inner, path, raw);
    return `${fieldPath(path)}: ${zodIssueText({ ...inner, path } as z.core.$ZodIssue, raw)}`;
  }
  let value: unknown = raw;
  for (const k of at) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[k] : undefined;
  const got = value === undefined ? 'undefined' : value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  const expected = [...new Set(issue.errors.flatMap((b) => b.filter((i) => i.code === 'invalid_type').map((i) => t('zod.type', (i as z.core.$ZodIssueInvalidType).expected))))];
  if (!expected.length) return `${fieldPath(at)}: ${issue.message}`;
  const want = expected.join(t('zod.or'));
  return `${fieldPath(at)}: ${value === undefined ? t('zod.missing', want) : t('zod.wrongType', want, t('zod.type', got))}`;
}

/** Why a file could not be read (ENOENT, EACCES…), in the director's language. */
export function fileProblem(err: unknown): string {
  return t('file.errno', (err as NodeJS.ErrnoException).code ?? '', (err as Error).message);
}

/**
 * A director's JSON file (`what`: its kind, as a message names it), parsed: a file that cannot be read
 * or is not JSON is a UserError (exit 2) naming the file and, for JSON, the line, column and line text.
 */
export function readJsonFile(file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UserError(t('file.cannotRead', what, file, fileProblem(err)));
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UserError(t('file.notJson', what, file, jsonProblem(err, text)));
  }
}

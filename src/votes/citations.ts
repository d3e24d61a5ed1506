/**
 * Which line of the game's own rule post a tally reason cites (src/votes/citations.yaml, data): a
 * reason built for an m107 game never cites 062's post, and a rule the game's post does not state is
 * cited not at all. `citer(preset)` gives the lookup reasons.ts words its parentheses with.
 */
import { packagePath } from '../paths.js';
import { packageYaml } from '../package-yaml.js';
import type { PresetName } from '../game/types.js';
import { checkData, isMap } from '../text/check-data.js';

const KEYS = ['format', 'invalid-target', 'correction', 'change-once', 'change-deadline', 'change-quote', 'accelerated-changes', 'edit-not-change', 'idiot', 'rule-once',
  'succession-chosen', 'succession-random', 'succession-idiot', 'succession-not-idiot', 'succession-no-contact',
  'election-first-reach', 'tie-nobody-out', 'rule-tie-sheriff', 'rule-tie-first-reach', 'tie-sheriff-choice', 'tie-sheriff-none', 'tie-no-sheriff', 'no-public-vote'] as const;
/** The rules a ballot reason rests on (the keys of citations.yaml). */
export type CiteKey = (typeof KEYS)[number];

/** One preset's entry: how its rule post is named, and the line each rule stands on. */
export interface PresetCitations {
  label: string;
  /** `rule`: the rule's name on the line, cited before the words ("竞岗：…"); `words`: the line's words, `…` where some are left out. */
  lines: Partial<Record<CiteKey, { line: number; rule?: string; words: string }>>;
}
export type CitationFile = Record<string, PresetCitations>;

let cache: CitationFile | null = null;

/** The citation table as the data file gives it (a file of the package: checked by hand, zod stays unloaded). */
export function citationTable(): CitationFile {
  const file = 'src/votes/citations.yaml';
  cache ??= checkData<CitationFile>(packagePath(file), packageYaml(file), (raw, bad) => {
    if (!isMap(raw)) return bad('', 'a map of presets');
    for (const [preset, own] of Object.entries(raw)) {
      if (!isMap(own) || typeof own.label !== 'string' || !isMap(own.lines)) return bad(preset, '{label, lines}');
      for (const [key, c] of Object.entries(own.lines)) {
        if (!(KEYS as readonly string[]).includes(key)) return bad(`${preset}.lines.${key}`, `one of ${KEYS.join(', ')}`);
        const fields = isMap(c) ? Object.keys(c) : [];
        const ok = isMap(c) && fields.every((f) => f === 'line' || f === 'words' || f === 'rule') && Number.isInteger(c.line) && (c.line as number) > 0
          && typeof c.words === 'string' && c.words !== '' && (c.rule === undefined || (typeof c.rule === 'string' && c.rule !== ''));
        if (!ok) return bad(`${preset}.lines.${key}`, '{line: a line number, words: the words on it, rule: its name on it (optional)}');
      }
    }
    return true;
  });
  return cache;
}

/** The game's citation for a rule ("m107 l.205 改票时必须引用原投票帖"), or null when its post does not state it. */
export type Cite = (key: CiteKey) => string | null;

/** The lookup for one preset's rule post. */
export function citer(preset: PresetName): Cite {
  const own = citationTable()[preset];
  return (key) => {
    const c = own?.lines[key];
    return c ? `${own.label} l.${c.line} ${c.rule ? `${c.rule}：` : ''}${c.words}` : null;
  };
}

/** No citations at all (a ballot read outside any game). */
export const noCites: Cite = () => null;

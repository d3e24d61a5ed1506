/**
 * Which line of the game's own rule post a tally reason cites (src/votes/citations.yaml, data): a
 * reason built for an m107 game never cites 062's post, and a rule the game's post does not state is
 * cited not at all. `citer(preset)` gives the lookup reasons.ts words its parentheses with.
 */
import fs from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { packagePath } from '../paths.js';
import type { PresetName } from '../game/types.js';

const line = z.object({ line: z.number().int().positive(), words: z.string().min(1) }).strict();
const keys = z.enum(['format', 'invalid-target', 'correction', 'change-once', 'change-deadline', 'change-quote', 'accelerated-changes', 'edit-not-change', 'idiot', 'rule-once',
  'succession-chosen', 'succession-random', 'succession-idiot', 'succession-not-idiot', 'succession-no-contact']);
/** The rules a ballot reason rests on (the keys of citations.yaml). */
export type CiteKey = z.infer<typeof keys>;

const presetCites = z.object({ label: z.string(), lines: z.partialRecord(keys, line) });
const fileSchema = z.record(z.string(), presetCites);

/** One preset's entry: how its rule post is named, and the line each rule stands on. */
export interface PresetCitations {
  label: string;
  lines: Partial<Record<CiteKey, { line: number; words: string }>>;
}
export type CitationFile = Record<string, PresetCitations>;

let cache: CitationFile | null = null;

/** The citation table as the data file gives it. */
export function citationTable(): CitationFile {
  cache ??= fileSchema.parse(parse(fs.readFileSync(packagePath('src', 'votes', 'citations.yaml'), 'utf8'))) as CitationFile;
  return cache;
}

/** The game's citation for a rule ("m107 l.205 改票时必须引用原投票帖"), or null when its post does not state it. */
export type Cite = (key: CiteKey) => string | null;

/** The lookup for one preset's rule post. */
export function citer(preset: PresetName): Cite {
  const own = citationTable()[preset];
  return (key) => {
    const c = own?.lines[key];
    return c ? `${own.label} l.${c.line} ${c.words}` : null;
  };
}

/** No citations at all (a ballot read outside any game). */
export const noCites: Cite = () => null;

/**
 * Resolves a game's ruleset: the preset's data file (src/game/presets/<name>.yaml, every value cited
 * to its rule post) deep-merged with the game file's `rules:` overrides, then validated as a whole.
 */
import fs from 'node:fs';
import { parse } from 'yaml';
import { UserError } from '../errors.js';
import { zodIssueText } from '../i18n/parser-problems.js';
import { packagePath } from '../paths.js';
import { isMap } from '../text/check-data.js';
import { rulesetSchema, type Ruleset } from './ruleset-schema.js';
import type { PresetName } from './types.js';

export const presetNames: PresetName[] = ['m107', '062', 'wuhui', '120b'];

const cache = new Map<PresetName, unknown>();

/** The preset's values as its data file gives them. */
export function presetData(name: PresetName): unknown {
  if (!cache.has(name)) cache.set(name, parse(fs.readFileSync(packagePath('src', 'game', 'presets', `${name}.yaml`), 'utf8')));
  return structuredClone(cache.get(name));
}

/**
 * The preset merged with overrides. `label(path, message)` turns a validation failure into a message
 * that points at the game file's line.
 */
export function loadRuleset(
  preset: PresetName,
  overrides: Record<string, unknown> = {},
  label: (path: PropertyKey[], message: string) => string = (p, m) => `rules.${p.join('.')}: ${m}`,
): Ruleset {
  const merged = deepMerge(presetData(preset), overrides);
  const parsed = rulesetSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(label(issue.path, zodIssueText(issue, merged)));
  }
  return parsed.data;
}

function deepMerge(base: unknown, over: unknown): unknown {
  if (isMap(base) && isMap(over)) {
    const out: Record<string, unknown> = { ...base };
    for (const [k, v] of Object.entries(over)) out[k] = k in base ? deepMerge(base[k], v) : v;
    return out;
  }
  return over === undefined ? base : over;
}

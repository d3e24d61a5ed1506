/**
 * The bundle's stand-in for src/package-yaml.ts: the same exports, with every file that module lists
 * (PACKAGE_YAML) parsed here, at build time, so the bundled CLI never loads the YAML parser for them.
 * A value JSON cannot carry the same (a date, .inf) stops the build rather than change the data.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';

/** The module text that replaces `moduleFile` (src/package-yaml.ts) in the bundle; `root` is the package root. */
export function bundledPackageYaml(root, moduleFile) {
  const list = /PACKAGE_YAML = \[([^\]]*)\]/.exec(fs.readFileSync(moduleFile, 'utf8'));
  const files = list ? [...list[1].matchAll(/'([^']+\.yaml)'/g)].map((m) => m[1]) : [];
  if (files.length === 0) throw new Error(`${moduleFile}: no PACKAGE_YAML list of .yaml files found`);
  const data = {};
  for (const f of files) {
    const value = parse(fs.readFileSync(path.join(root, f), 'utf8'));
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(value)), value)) throw new Error(`${f}: holds a value JSON cannot carry`);
    data[f] = value;
  }
  return `export const PACKAGE_YAML = ${JSON.stringify(files)};
const DATA = JSON.parse(${JSON.stringify(JSON.stringify(data))});
export function packageYaml(file) {
  if (!Object.hasOwn(DATA, file)) throw new Error(file + ': not one of the bundle\\'s YAML data files (src/package-yaml.ts PACKAGE_YAML)');
  return DATA[file];
}
`;
}

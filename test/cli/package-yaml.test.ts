/**
 * The package's YAML data as the bundle holds it (scripts/package-yaml.mjs, parsed at build time) is
 * the files' own: the same list as src/package-yaml.ts, each value deep-equal to the file parsed now,
 * and a file outside the list refused. The bundle test (bundle.test.ts) holds that a warm closing
 * command then loads no YAML parser.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { parse } from 'yaml';
import { PACKAGE_YAML, packageYaml } from '../../src/package-yaml.js';

const root = path.resolve(import.meta.dirname, '../..');
const moduleFile = path.join(root, 'src', 'package-yaml.ts');
type Generator = (root: string, moduleFile: string) => string;
const { bundledPackageYaml } = (await import(pathToFileURL(path.join(root, 'scripts', 'package-yaml.mjs')).href)) as { bundledPackageYaml: Generator };

test('the bundled data equals each listed file parsed, and nothing else is served', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-package-yaml-'));
  const out = path.join(dir, 'package-yaml.mjs');
  fs.writeFileSync(out, bundledPackageYaml(root, moduleFile));
  const bundled = (await import(pathToFileURL(out).href)) as { PACKAGE_YAML: string[]; packageYaml: (f: string) => unknown };
  expect(bundled.PACKAGE_YAML).toEqual([...PACKAGE_YAML]);
  for (const f of PACKAGE_YAML) {
    const parsed = parse(fs.readFileSync(path.join(root, f), 'utf8'));
    expect(bundled.packageYaml(f), f).toEqual(parsed);
    expect(packageYaml(f), f).toEqual(parsed);
  }
  expect(() => bundled.packageYaml('src/game/presets/m107.yaml')).toThrow(/not one of the bundle's YAML data files/);
});

test('a data file JSON cannot carry the same stops the build', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-package-yaml-'));
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src', 'odd.yaml'), 'limit: .inf\n');
  fs.writeFileSync(path.join(dir, 'src', 'package-yaml.ts'), "export const PACKAGE_YAML = ['src/odd.yaml'] as const;\n");
  expect(() => bundledPackageYaml(dir, path.join(dir, 'src', 'package-yaml.ts'))).toThrow(/src\/odd.yaml: holds a value JSON cannot carry/);
});

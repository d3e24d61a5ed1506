/**
 * Every test's temporary files under one folder of this run, removed at the end: tests make their
 * stores, game files and browser profiles with os.tmpdir(), and child processes (the CLI, Chromium)
 * inherit TMPDIR, so nothing a run made is left in the machine's /tmp.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(path.join(realpathSync(tmpdir()), 'bansha-test-'));
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}

/**
 * `bansha lastwords FILE`: checks a last-words text for Discuz! code (m107 l.55 遗言中禁止使用Discuz!代码;
 * rules-spec §7). Prints each tag with its line and column; exit 1 when any is found, 0 when clean
 * (like a linter), so a script can gate on it. `-` reads standard input.
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import { findDiscuzCode } from '../../violations/lastwords.js';
import { UserError } from '../errors.js';

export function register(program: Command): void {
  program
    .command('lastwords <file>')
    .description('check a last-words text for Discuz! code ([b], [color=…], [url], [img], [size], [quote]…); exit 1 when found')
    .option('--json', 'print JSON: {clean, findings: [{tag, written, line, column}]}')
    .action((file: string, o: { json?: boolean }) => {
      let text: string;
      try {
        text = fs.readFileSync(file === '-' ? 0 : file, 'utf8');
      } catch (err) {
        throw new UserError(`cannot read ${file}: ${(err as Error).message}`);
      }
      const findings = findDiscuzCode(text);
      if (o.json) process.stdout.write(`${JSON.stringify({ clean: findings.length === 0, findings }, null, 2)}\n`);
      else if (!findings.length) process.stdout.write(`${file}: no Discuz! code\n`);
      else {
        process.stdout.write(`${file}: ${findings.length} Discuz! code tag${findings.length > 1 ? 's' : ''} (遗言中禁止使用Discuz!代码)\n`);
        for (const f of findings) process.stdout.write(`  ${f.line}:${f.column}  ${f.written}\n`);
      }
      if (findings.length) process.exitCode = 1;
    });
}

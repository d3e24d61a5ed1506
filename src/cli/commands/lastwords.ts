/**
 * `bansha lastwords FILE`: checks a last-words text for Discuz! code (m107 l.55 遗言中禁止使用Discuz!代码;
 * rules-spec §7). Prints each tag with its line and column; exit 1 when any is found, 0 when clean
 * (like a linter), so a script can gate on it. `-` reads standard input.
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import { findDiscuzCode } from '../../violations/lastwords.js';
import { UserError } from '../../errors.js';
import { t } from '../../i18n/index.js';

export function register(program: Command): void {
  program
    .command('lastwords')
    .description(t('lastwords.description'))
    .argument('<file>', t('lastwords.file'))
    .option('--json', t('lastwords.json'))
    .action((file: string, o: { json?: boolean }) => {
      let text: string;
      try {
        text = fs.readFileSync(file === '-' ? 0 : file, 'utf8');
      } catch (err) {
        throw new UserError(t('lastwords.cannotRead', file, (err as Error).message));
      }
      const findings = findDiscuzCode(text);
      if (o.json) process.stdout.write(`${JSON.stringify({ clean: findings.length === 0, findings }, null, 2)}\n`);
      else if (!findings.length) process.stdout.write(`${t('lastwords.clean', file)}\n`);
      else {
        process.stdout.write(`${t('lastwords.found', file, findings.length)}\n`);
        for (const f of findings) process.stdout.write(`  ${f.line}:${f.column}  ${f.written}\n`);
      }
      if (findings.length) process.exitCode = 1;
    });
}

// Retakes the HTML report's screenshots in fixtures/screenshots/ (README, docs/guide.zh-CN.md): runs the demo
// into a temporary folder and draws its day-2 report in Chromium at 1280 and 390 px. Needs a CJK font
// (Debian: fonts-noto-cjk). The cockpit's are taken by test/cockpit/cockpit.test.ts with BANSHA_SCREENSHOTS=1.
// Run: node scripts/screenshots.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-shots-'));
try {
  execFileSync(process.execPath, [path.join(root, 'bin', 'bansha.js'), 'demo', '--out', path.join(out, 'demo')], { cwd: out, stdio: 'inherit' });
  const report = path.join(out, 'demo', 'game-day2', 'report-day2.html');
  const browser = await chromium.launch({ executablePath: process.env.BANSHA_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    for (const [width, height, file] of [[1280, 900, 'report-day2.png'], [390, 844, 'report-day2-phone.png']]) {
      const page = await browser.newPage({ viewport: { width, height } });
      await page.goto(`file://${report}`);
      await page.screenshot({ path: path.join(root, 'fixtures', 'screenshots', file) });
      await page.close();
    }
  } finally {
    await browser.close();
  }
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}

/**
 * `bansha demo --live [--open] [--out DIR]`: the live demo (live.ts) until Ctrl-C — the replay of the
 * bundled game's day 2 with the closing cockpit open on it; its files go in `<out>/live/`.
 */
import path from 'node:path';
import { openBrowser, untilSignal } from '../cockpit/index.js';
import { t } from '../i18n/index.js';
import { startLiveDemo } from './live.js';

export async function demoLive(o: { out?: string; open?: boolean; minutes?: number }): Promise<void> {
  const minutes = o.minutes !== undefined && Number.isFinite(o.minutes) && o.minutes > 0 ? o.minutes : 3;
  const demo = await startLiveDemo({ out: path.resolve(o.out ?? 'bansha-demo', 'live'), minutes });
  process.stdout.write(`${t('demo.liveStarting', minutes)}\n${t('cockpit.listening', demo.running.url)}\n`);
  if (o.open) openBrowser(demo.running.url, (l) => process.stderr.write(`${l}\n`));
  await untilSignal();
  await demo.stop();
  process.stdout.write(`${t('cockpit.stopped')}\n`);
}

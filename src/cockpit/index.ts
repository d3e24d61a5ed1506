/**
 * The closing cockpit (issue 33): `bansha watch --serve` and `bansha demo --live`. A Cockpit (state.ts)
 * for one game day, its local server (server.ts), and the loop that runs a round every interval until
 * the day's closing count is final — a round at once, then every `intervalMs`, one right after the close,
 * and after the close again every interval until a crawl after it succeeded whole; then the page waits
 * for the director's acts. `stop()` ends the loop, waits for a round under way (the crawl's store lock
 * is released by it), and closes the server: nothing is left listening.
 */
import { spawn } from 'node:child_process';
import type { Clock } from '../clock.js';
import type { CrawlOptions } from '../crawl/crawler.js';
import type { Game } from '../game/types.js';
import { t } from '../i18n/index.js';
import { startCockpitServer, type CockpitServer } from './server.js';
import { Cockpit, type CockpitView } from './state.js';

export { Cockpit, type CockpitView } from './state.js';
export { startCockpitServer, CSP, type CockpitServer } from './server.js';

export interface RunCockpitOptions {
  game: Game;
  day: number;
  clock: Clock;
  /** Forum ms per real ms (the live demo runs forum time faster); default 1. */
  rate?: number;
  /** Between rounds, real ms (default 60 s: the polite rate). */
  intervalMs?: number;
  crawl?: CrawlOptions;
  port?: number;
  /** Notes (a round that failed for a reason not the forum's). */
  log?: (line: string) => void;
}

export interface RunningCockpit {
  cockpit: Cockpit;
  server: CockpitServer;
  url: string;
  /** Ends the loop, waits for the round under way, closes the server. */
  stop(): Promise<void>;
}

/** Whether a view is the day's final count: closed, fetched whole after the close, complete. */
export function isFinal(v: CockpitView | null): boolean {
  return Boolean(v && !v.open && v.asOf !== null && !v.stale.length && !v.incomplete.length && !v.countError && !v.lastCrawl?.error && !v.lastCrawl?.failures.length);
}

/** Starts the cockpit's server and its rounds. */
export async function runCockpit(o: RunCockpitOptions): Promise<RunningCockpit> {
  const cockpit = new Cockpit({ game: o.game, day: o.day, clock: o.clock, crawl: o.crawl });
  const rate = o.rate ?? 1;
  const interval = o.intervalMs ?? 60_000;
  const title = t('cockpit.title', o.game.file.replace(/^.*[\\/]/, '').replace(/\.ya?ml$/i, ''), o.day);
  const server = await startCockpitServer(cockpit, { port: o.port, rate, title });
  const log = o.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const stopping = new AbortController();
  let wake: (() => void) | null = null;
  const sleep = (ms: number) => new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      try {
        await cockpit.round(true);
      } catch (err) {
        log(String((err as Error)?.stack ?? err));
      }
      if (stopping.signal.aborted) break;
      const v = cockpit.view;
      if (isFinal(v)) break; // the closing count stands: the page waits for the director
      const toClose = v && v.open ? (v.closes - o.clock.now()) / rate + 50 : Infinity;
      await sleep(Math.max(0, Math.min(interval, toClose)));
    }
  })();
  return {
    cockpit,
    server,
    url: server.url,
    stop: async () => {
      stopping.abort();
      wake?.();
      await loop;
      await cockpit.idle();
      await server.close();
    },
  };
}

/** Opens `url` in the system's browser (the desktop's own opener); a failure is only a note. */
export function openBrowser(url: string, log: (line: string) => void): void {
  const [cmd, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', (err) => log(t('cockpit.openFailed', err.message)));
    child.unref();
  } catch (err) {
    log(t('cockpit.openFailed', (err as Error).message));
  }
}

/**
 * Runs the cockpit until Ctrl-C (SIGINT) or SIGTERM: prints the address, opens the browser when asked;
 * on the signal stops cleanly (stop()) and resolves.
 */
export async function serveUntilStopped(o: RunCockpitOptions & { open?: boolean; print?: (line: string) => void; started?: (running: RunningCockpit) => void }): Promise<void> {
  const print = o.print ?? ((l: string) => process.stdout.write(`${l}\n`));
  const running = await runCockpit(o);
  print(t('cockpit.listening', running.url));
  if (o.open) openBrowser(running.url, (l) => process.stderr.write(`${l}\n`));
  o.started?.(running);
  await untilSignal();
  await running.stop();
  print(t('cockpit.stopped'));
}

/** Resolves at the first Ctrl-C (SIGINT) or SIGTERM, its handlers then removed. */
export function untilSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}

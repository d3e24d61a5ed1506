/**
 * Test helper: bansha started as a director starts it — bin/bansha.js in a child process — for the
 * commands that keep running (demo --serve, demo --live, watch --serve): its output collected as it
 * comes, and its exit code once it ends.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const BIN = path.resolve(import.meta.dirname, '../../bin/bansha.js');

/** A running bansha: what it printed so far on each stream, and its exit code once it ends. */
export interface RunningBansha {
  child: ChildProcess;
  out(): string;
  err(): string;
  exited: Promise<number | null>;
}

/** Starts `bansha ARGS…` in `cwd` with `env` added to this process's environment (Chinese by default). */
export function startBansha(args: string[], opts: { env?: Record<string, string>; cwd?: string } = {}): RunningBansha {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: opts.cwd,
    env: { ...process.env, LANG: 'zh_CN.UTF-8', LC_ALL: '', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString('utf8')));
  child.stderr!.on('data', (b: Buffer) => (err += b.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exited };
}

/** The cockpit's address with its token (http://127.0.0.1:PORT/TOKEN/) in what `b` printed, or undefined. */
export const cockpitAddress = (b: RunningBansha): string | undefined => /http:\/\/127\.0\.0\.1:\d+\/[\w-]{32}\//.exec(b.out())?.[0];

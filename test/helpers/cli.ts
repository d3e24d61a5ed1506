/**
 * Test helper: run `bansha …` in-process through the real command definitions (src/cli/commands), with
 * stdout, stderr and console captured, environment variables set for the call, and the exit code the
 * real CLI would give (src/cli/program.ts: the same program, language and exit codes as bin/bansha).
 */
import { vi } from 'vitest';
import { buildProgram, exitCodeOf } from '../../src/cli/program.js';

/** What one command printed (stdout and stderr, in order), each stream alone, and its exit code. */
export interface CliRun {
  out: string;
  stdout: string;
  stderr: string;
  code: number;
}

/** Runs `bansha ARGS…` with `env` set for the call; never throws: a failure is its exit code and message. */
export async function bansha(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  let out = '';
  let stdout = '';
  let stderr = '';
  const saved: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(env)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  const text = (s: string | Uint8Array) => (typeof s === 'string' ? s : Buffer.from(s).toString('utf8'));
  const err = (s: string | Uint8Array) => ((out += text(s)), (stderr += text(s)), true);
  const std = (s: string | Uint8Array) => ((out += text(s)), (stdout += text(s)), true);
  vi.spyOn(process.stdout, 'write').mockImplementation(std as typeof process.stdout.write);
  vi.spyOn(process.stderr, 'write').mockImplementation(err as typeof process.stderr.write);
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void std(`${a.join(' ')}\n`));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err(`${a.join(' ')}\n`));
  let code = 0;
  try {
    const argv = ['node', 'bansha', ...args];
    await (await buildProgram(argv, { writeOut: std, writeErr: err })).parseAsync(argv);
    code = Number(process.exitCode ?? 0); // a command that finished with a verdict (lastwords: 1)
  } catch (e) {
    code = exitCodeOf(e);
  } finally {
    process.exitCode = undefined;
    vi.restoreAllMocks();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  return { out, stdout, stderr, code };
}

/**
 * Loaded with `node --import` into a command the closing bench runs: at exit, writes the process's
 * peak resident memory (KiB, from the kernel's own accounting) to the file named by BANSHA_BENCH_RSS.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.BANSHA_BENCH_RSS;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));

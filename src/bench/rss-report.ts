/**
 * Loaded with `node --import` into a command the closing bench runs: at exit, writes the process's
 * peak resident memory (KiB: peak-rss.ts) to the file named by BANSHA_BENCH_RSS.
 */
import { writeFileSync } from 'node:fs';
import { peakRssKiB } from './peak-rss.js';

const file = process.env.BANSHA_BENCH_RSS;
if (file) process.on('exit', () => writeFileSync(file, String(peakRssKiB())));

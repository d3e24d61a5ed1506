// Child process for test/cli/heap-growth.test.ts: a crawl's shape of allocation — a live set that only grows
// (the posts kept) beside a big tree per "page" that survives a few allocations and is then dropped —
// run with or without boundHeapGrowth(); prints the peak V8 heap size and young generation size (MB) as JSON.
import v8 from 'node:v8';
if (process.argv[2] === 'bound') (await import('../../src/heap-growth.ts')).boundHeapGrowth();
const live = [];
for (let i = 0; i < 200_000; i++) live.push({ i, s: `${'x'.repeat(20)}${i}` });
let peak = 0;
let young = 0;
for (let page = 0; page < 300; page++) {
  const tree = [];
  for (let j = 0; j < 20_000; j++) tree.push({ j, children: [j, j + 1], tag: `n${j}` });
  if (page % 10 === 0) live.push(tree.slice(0, 50));
  peak = Math.max(peak, process.memoryUsage().heapTotal);
  young = Math.max(young, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);
}
process.stdout.write(JSON.stringify({ peakHeapMB: peak / 1048576, youngMB: young / 1048576 }));

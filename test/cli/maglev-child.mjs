// Child process for test/cli/maglev.test.ts: a function hot enough for V8 to compile it with its optimising
// tiers, run with or without skipMaglev() set first (under --trace-opt, which names each compile's target).
if (process.argv[2] === 'skip') (await import('../../src/maglev.ts')).skipMaglev();
function hot(n) {
  let s = 0;
  for (let i = 0; i < n; i++) s += (i * 31) % 7;
  return s;
}
let total = 0;
for (let r = 0; r < 20_000; r++) total += hot(200);
process.stdout.write(`total ${total}\n`);

// Preload for the lazy-import test: at exit, print every npm package loaded through require() (the
// ESM resolve hook does not see createRequire's loads) as "[cjs] name" on stderr.
process.on('exit', () => {
  const seen = new Set();
  for (const file of Object.keys(require.cache)) {
    const m = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(file);
    if (m && !seen.has(m[1])) {
      seen.add(m[1]);
      process.stderr.write(`[cjs] ${m[1].replace(/\\/g, '/')}\n`);
    }
  }
});

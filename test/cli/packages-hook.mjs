// Module hooks for the lazy-import test: print every npm package a process resolves, one per line,
// to stderr as "[package] name", and every module of bansha's own as "[module] src/…". The hooks run
// on a thread of their own, whose process.stderr is piped to the main thread: a process that exits at
// once (`--version`) lost those lines on Node 24, so each is written to fd 2 before the module loads.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
import { writeSync } from 'node:fs';
const seen = new Set();
export async function resolve(s, c, next) {
  const r = await next(s, c);
  const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(r.url);
  if (m && !m[1].startsWith('typescript') && !seen.has(m[1])) { seen.add(m[1]); writeSync(2, '[package] ' + m[1] + '\\n'); }
  const own = /\\/(src\\/[^?#]+)$/.exec(r.url);
  if (!m && own && !seen.has(own[1])) { seen.add(own[1]); writeSync(2, '[module] ' + own[1] + '\\n'); }
  return r;
}`),
);

// Module hooks for the lazy-import test: print every npm package a process resolves, one per line,
// to stderr as "[package] name", and every module of bansha's own as "[module] src/…".
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
const seen = new Set();
export async function resolve(s, c, next) {
  const r = await next(s, c);
  const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(r.url);
  if (m && !m[1].startsWith('typescript') && !seen.has(m[1])) { seen.add(m[1]); process.stderr.write('[package] ' + m[1] + '\\n'); }
  const own = /\\/(src\\/[^?#]+)$/.exec(r.url);
  if (!m && own && !seen.has(own[1])) { seen.add(own[1]); process.stderr.write('[module] ' + own[1] + '\\n'); }
  return r;
}`),
);

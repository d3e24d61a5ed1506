// Module hook for the bundle test: print every module a process loads to stderr as "[load] URL".
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
export async function load(url, context, next) {
  process.stderr.write('[load] ' + url + '\\n');
  return next(url, context);
}`),
);

// Child process for the killed-mid-save tests: saves a large session (so each save takes a while and a
// signal is likely to land inside one) in a loop, telling the parent after each completed save.
import { saveSession } from '../../src/crawl/session.js';

const [file] = process.argv.slice(2);
const cookies = Array.from({ length: 4000 }, (_, i) => ({
  name: `c${i}`, value: `S3CRET-${i}-${'v'.repeat(400)}`, domain: '127.0.0.1', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax',
}));
process.send?.({ ready: true });
for (let i = 1; ; i++) {
  await saveSession(file, { cookies, origins: [] });
  process.send?.({ saved: i });
}

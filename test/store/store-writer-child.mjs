// Child process for the killed-mid-write test: opens the store, then writes ever-larger versions of
// one post in a loop, telling the parent after each completed write. The parent kills it with SIGKILL.
import { openStore } from '../../src/store/store-file.js';

const [storePath] = process.argv.slice(2);
const store = await openStore(storePath);
const base = store.data.posts['1'];
for (let i = 1; ; i++) {
  const post = { ...base.versions[0].post, text: `version ${i} ` + 'x'.repeat(200_000) };
  base.versions.push({ hash: `h${i}`, firstSeen: new Date().toISOString(), lastSeen: new Date().toISOString(), post });
  // A big unrelated payload so each write takes a while and a kill is likely to land inside one.
  store.data.users[`filler${i % 20}`] = i;
  await store.write();
  process.send?.({ written: i, versions: base.versions.length });
}

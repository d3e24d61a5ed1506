/** A store handle whose writes are counted, failing from the `failFrom`-th write on (everything else the store's own). */
import type { Store } from '../../src/store/store-file.js';

export function countedStore(store: Store, failFrom = Infinity): Store & { writes: number } {
  const c: Store & { writes: number } = Object.assign(Object.create(store) as Store, {
    writes: 0,
    write: () => (++c.writes >= failFrom ? Promise.reject(new Error('disk full')) : store.write()),
  });
  return c;
}

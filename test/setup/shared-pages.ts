/**
 * Says once a run, not once a test file, that the tests of third parties' real pages are skipped
 * because ../shared/discuz/realworld is not beside this checkout (test/helpers/realworld.ts).
 */
import { REALWORLD } from '../helpers/realworld.js';

export default function setup(): void {
  if (!REALWORLD) console.log('bansha: the real-forum page tests are skipped: ../shared/discuz/realworld is not beside this checkout.');
}

// Child process for the lock race test: says it is ready; for each round the parent names a moment,
// waits for it (spinning), tries to take the lock and reports "held" or "refused"; a taken lock is kept
// until the parent says every rival has tried ("release"), so a slow rival under load can never find
// it already released and take it in turn.
import { takeFileLock } from '../../src/store/lock.ts';

const [lockFile] = process.argv.slice(2);
let release = null;
process.on('message', (m) => {
  if (m === 'exit') return process.disconnect();
  if (m === 'release') {
    release?.();
    release = null;
    return process.send('released');
  }
  while (Date.now() < m.at); // every child tries in the same millisecond
  let outcome;
  try {
    release = takeFileLock(lockFile, 'the test store');
    outcome = 'held';
  } catch (e) {
    outcome = e.exitCode === 2 ? 'refused' : `error ${e.message}`;
  }
  process.send(outcome);
});
process.send('ready');

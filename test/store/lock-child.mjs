// Child process for the lock race test: says it is ready; for each round the parent names a moment,
// waits for it (spinning), tries to take the lock, reports "held" or "refused", and releases a taken
// lock once every rival has tried.
import { takeFileLock } from '../../src/store/lock.ts';

const [lockFile] = process.argv.slice(2);
process.on('message', async (m) => {
  if (m === 'exit') return process.disconnect();
  while (Date.now() < m.at); // every child tries in the same millisecond
  let release = null;
  let outcome;
  try {
    release = takeFileLock(lockFile, 'the test store');
    outcome = 'held';
  } catch (e) {
    outcome = e.exitCode === 2 ? 'refused' : `error ${e.message}`;
  }
  if (release) await new Promise((r) => setTimeout(r, m.at + 200 - Date.now()));
  release?.();
  process.send(outcome);
});
process.send('ready');

/**
 * test/helpers/fault.ts withFault: the fault is served while the run runs and never after it, whether the
 * run returns or throws (the tests of a close while a thread answers 503 rely on the server being healthy
 * for the next test).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReplayServer, type ReplayServer } from '../../src/replay/server.js';
import { threadAnswers, withFault } from '../helpers/fault.js';
import { ids } from '../store/fixture-pages.js';

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server?.close();
});

const TID = ids.threads.d1vote.tid;
const cookie = () => server.sessionState().cookies.map((c) => `${c.name}=${c.value}`).join('; ');
const status = async (p: string) => (await fetch(server.url + p, { headers: { cookie: cookie() }, redirect: 'manual' })).status;
const page = (tid: number) => `forum.php?mod=viewthread&tid=${tid}&page=1`;

test('the thread answers 503 during the run, the others and the thread afterwards answer as captured; the run\'s value comes back', async () => {
  const seen = await withFault(server, threadAnswers(TID, 503), async () => [await status(page(TID)), await status(page(ids.threads.d1talk.tid))]);
  expect(seen).toEqual([503, 200]);
  expect(await status(page(TID))).toBe(200);
});

test('a run that throws: the error comes through, and the fault is cleared all the same', async () => {
  const boom = new Error('the command failed');
  await expect(withFault(server, threadAnswers(TID, 503), async () => {
    expect(await status(page(TID))).toBe(503);
    throw boom;
  })).rejects.toBe(boom);
  expect(await status(page(TID))).toBe(200);
});

test('one page, or several rules at once', async () => {
  const seen = await withFault(server, [threadAnswers(TID, 503, 1), threadAnswers(ids.threads.d1talk.tid, 500)], async () => [
    await status(page(TID)), await status(`forum.php?mod=viewthread&tid=${TID}&page=2`), await status(page(ids.threads.d1talk.tid)),
  ]);
  expect(seen).toEqual([503, 200, 500]);
});

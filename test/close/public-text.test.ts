/**
 * Two audiences (issue 13), checked on every BBCode output of the captured games (the public m107
 * capture and the wuhui and 120b demo games): tally --bbcode (and wuhui's --rules), report --bbcode with
 * every proposed card confirmed, the elevator floor, the auction, and the message `tally --post` would
 * post. None carries a director's note (the ballots' and cards' notes, or advice to the director), and
 * every rule-post citation names the game's own preset.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Ledger } from '../../src/cards/types.js';
import { loadGame } from '../../src/game/game-file.js';
import { FIXTURES, storeFromFixture, threadPageFiles } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';

const GAMES = [
  { game: 'public', site: 'public', label: 'm107' },
  { game: 'wuhui', site: 'demo-wuhui', label: '无回之城' },
  { game: '120b', site: 'demo-120b', label: '120b' },
] as const;

/** Words that address the director: they belong in the note, never in what players read. */
const DIRECTOR_WORDS = /导演可|请导演|导演备注|导演决定|bansha rule|是否为 /;
const CITATION = /(m107|062|无回之城|120b) l\.\d+/g;

async function ok(args: string[]): Promise<string> {
  const r = await bansha(args);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

describe.each(GAMES)('$game: every BBCode output is public text only', ({ game, site, label }) => {
  test('no director note, no other preset\'s citation', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bansha-public-${game}-`));
    const file = path.join(dir, `${game}.yaml`);
    fs.copyFileSync(path.join(FIXTURES, 'games', `${game}.yaml`), file);
    // (fetched after every day's close: the demo games close in December 2026, after the default fetch time)
    fs.writeFileSync(path.join(dir, `${game}.store.json`), JSON.stringify(storeFromFixture(site, threadPageFiles(site), new Date('2027-01-01T00:00:00Z'))));
    const g = loadGame(file);

    const outputs: Array<{ what: string; text: string }> = [];
    const notes: string[] = [];
    for (const d of g.days) {
      await ok(['report', '--game', file, '--day', String(d.day), '--json']); // proposals into the ledger
    }
    // Every proposal confirmed: the notice then publishes every card's reason.
    const ledgerFile = path.join(dir, `${game}.cards.json`);
    const ledger: Ledger = fs.existsSync(ledgerFile) ? JSON.parse(fs.readFileSync(ledgerFile, 'utf8')) : { version: 1, game: file, cards: [] };
    if (game !== 'wuhui') expect(ledger.cards.length).toBeGreaterThan(0); // the wuhui demo game has no violations
    for (const c of ledger.cards) {
      c.status = 'confirmed';
      if (c.directorNote) notes.push(c.directorNote);
    }
    fs.writeFileSync(ledgerFile, JSON.stringify(ledger));

    for (const d of g.days) {
      const day = String(d.day);
      outputs.push({ what: `day ${day} report --bbcode`, text: await ok(['report', '--game', file, '--day', day, '--bbcode', '--no-ledger']) });
      if (g.rules.publicVote && d.vote) {
        outputs.push({ what: `day ${day} tally --bbcode`, text: await ok(['tally', '--game', file, '--day', day, '--bbcode']) });
        const json = JSON.parse(await ok(['tally', '--game', file, '--day', day, '--json'])) as { ballots: Array<{ note: string | null }>; result: { note: string | null } };
        notes.push(...json.ballots.flatMap((b) => (b.note ? [b.note] : [])), ...(json.result.note ? [json.result.note] : []));
        const dry = JSON.parse(await ok(['tally', '--game', file, '--day', day, '--post', '--json'])) as { message: string };
        outputs.push({ what: `day ${day} tally --post message`, text: dry.message });
      }
      if (d.rules) outputs.push({ what: `day ${day} tally --rules --bbcode`, text: await ok(['tally', '--game', file, '--day', day, '--rules', '--bbcode']) });
      if (d.discussion) outputs.push({ what: `day ${day} elevator`, text: await ok(['elevator', '--game', file, '--day', day]) });
      if (d.auction) outputs.push({ what: `day ${day} auction`, text: await ok(['auction', '--game', file, '--day', day]) });
    }
    expect(outputs.length).toBeGreaterThan(3);
    if (game === 'public') expect(notes.length).toBeGreaterThan(0); // the capture has ballots the director must look at

    let cited = 0;
    for (const { what, text } of outputs) {
      expect(text, what).not.toMatch(DIRECTOR_WORDS);
      for (const n of notes) expect(text.includes(n), `${what} carries the note «${n}»`).toBe(false);
      for (const m of text.matchAll(CITATION)) {
        expect(m[1], `${what}: «${m[0]}»`).toBe(label);
        cited++;
      }
    }
    if (game === 'public') expect(cited).toBeGreaterThan(3); // the rules are cited — from m107's own post
  }, 120_000);
});

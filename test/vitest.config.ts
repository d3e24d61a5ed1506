import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/temp-root.ts', 'test/setup/shared-pages.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The machine's own zone must never change a result: run every test in a zone far from +8.
    // The director's language is Chinese unless the locale says English: tests pin a neutral locale.
    // "Now" (src/clock.ts) is after every fixture game's last close, whatever the date the suite runs on
    // (the demo games close in December 2026): a test of a day still open sets its own BANSHA_NOW.
    env: { TZ: 'America/Los_Angeles', LANG: 'C.UTF-8', LC_ALL: '', LC_MESSAGES: '', BANSHA_NOW: '2027-06-01T00:00:00Z' },
  },
});

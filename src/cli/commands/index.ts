/** Every command the CLI offers, in the order --help lists them. */
import type { Command } from 'commander';
import { register as demo } from './demo.js';
import { register as login } from './login.js';
import { register as crawl } from './crawl.js';
import { register as parse } from './parse.js';
import { register as tally } from './tally.js';
import { register as report } from './report.js';
import { register as cards } from './cards.js';
import { register as rule } from './rule.js';
import { register as close } from './close.js';
import { register as elevator } from './elevator.js';
import { register as auction } from './auction.js';
import { register as lastwords } from './lastwords.js';
import { register as init } from './init.js';
import { register as watch } from './watch.js';
import { register as store } from './store.js';

export const commands: Array<(program: Command) => void> = [
  demo, init, login, crawl, watch, parse, close, tally, report, rule, cards, elevator, auction, lastwords, store,
];

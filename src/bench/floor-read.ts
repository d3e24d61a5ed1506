/**
 * The floor a closing command is measured against: a bare node process that reads the given thread
 * logs of the store and JSON-parses every line of them — the least any command reading those threads
 * must do. `node dist/bench/floor-read.js FILE...`; prints the number of lines parsed.
 */
import { readFileSync } from 'node:fs';

let lines = 0;
for (const file of process.argv.slice(2)) {
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    JSON.parse(line.slice(0, line.lastIndexOf(' '))); // each line is JSON, a space and its checksum
    lines++;
  }
}
process.stdout.write(`${lines}\n`);

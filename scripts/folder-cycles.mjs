#!/usr/bin/env node
// Lists the folder-level import cycles among src/'s pipeline rooms: an import from src/A/* to src/B/*
// is an edge A → B; a pair A → B and B → A (directly or round a longer loop) is a cycle. Type-only
// imports count too: a room that names another's types still depends on it.
// Usage: node scripts/folder-cycles.mjs [room ...]   (default: every folder of src/)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const src = resolve(dirname(new URL(import.meta.url).pathname), '..', 'src');
const rooms = process.argv.length > 2 ? process.argv.slice(2)
  : readdirSync(src).filter((name) => statSync(join(src, name)).isDirectory()).sort();

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}
const roomOf = (path) => { const parts = relative(src, path).split(sep); return parts.length > 1 ? parts[0] : null; };

/** edges.get(A).get(B) = the files of A importing B (one example each, for the message). */
const edges = new Map();
for (const file of files(src)) {
  const from = roomOf(file);
  if (!from) continue;
  const text = readFileSync(file, 'utf8');
  for (const [, spec] of text.matchAll(/(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]/g)) {
    const to = roomOf(resolve(dirname(file), spec));
    if (!to || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    const byTarget = edges.get(from);
    if (!byTarget.has(to)) byTarget.set(to, []);
    if (!byTarget.get(to).includes(relative(src, file))) byTarget.get(to).push(relative(src, file));
  }
}

// A cycle among the chosen rooms: any pair A, B with a path each way through chosen rooms only.
const reach = (a) => {
  const seen = new Set([a]);
  const todo = [a];
  while (todo.length) {
    for (const b of edges.get(todo.pop())?.keys() ?? []) {
      if (rooms.includes(b) && !seen.has(b)) { seen.add(b); todo.push(b); }
    }
  }
  return seen;
};
let cycles = 0;
for (const a of rooms) {
  for (const b of edges.get(a)?.keys() ?? []) {
    if (!rooms.includes(b) || !reach(b).has(a)) continue;
    cycles++;
    console.log(`${a} → ${b} (${edges.get(a).get(b).join(', ')}) and back`);
  }
}
console.log(cycles === 0 ? `no folder-level cycle among ${rooms.join(', ')}` : `${cycles} edge(s) on a cycle`);
process.exitCode = cycles === 0 ? 0 : 1;

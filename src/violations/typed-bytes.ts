/**
 * A value made of typed arrays, arrays, Maps with string or number keys, plain objects, strings,
 * numbers, booleans and null, as bytes and back: the compiled pattern index (pattern-index.ts) kept
 * between processes, so that a report rerun right after new posts reads it instead of compiling it
 * (~0.2 s of CPU, and its garbage, to scan a few posts). The typed arrays' bytes are laid out after one
 * JSON text of the rest and read back as views onto the bytes read (no copy, nothing parsed per
 * number). Anything else (an object keyed Map, a class instance, undefined as a property) is refused:
 * `typedBytes` throws, and the caller keeps nothing.
 */

const KINDS = {
  i: Int32Array, u: Uint32Array, f: Float64Array, b: Uint8Array, w: Uint16Array, c: Int8Array, g: Float32Array, h: Int16Array,
} as const;
type Kind = keyof typeof KINDS;
type Typed = Int32Array | Uint32Array | Float64Array | Uint8Array | Uint16Array | Int8Array | Float32Array | Int16Array;

function kindOf(v: ArrayBufferView): Kind | undefined {
  for (const k of Object.keys(KINDS) as Kind[]) if (Object.getPrototypeOf(v) === KINDS[k].prototype) return k;
  return undefined;
}

// In the JSON text a typed array is "\u0000<index>" (its kind and length in the tables after the text), a Map
// {"\u0000m": [keys], "values": [values]}, an array of typed arrays of one kind {"\u0000p": <index of them
// all, one after another>, "ends": <index of where each ends>}, an array's hole (undefined) {"\u0000u": 1}.
const MARK = '\u0000';
const MAP = `${MARK}m`;
const PACKED = `${MARK}p`;
const HOLE = `${MARK}u`;

const KIND_CODES = Object.keys(KINDS) as Kind[];
const up8 = (n: number): number => n + ((8 - (n % 8)) % 8);
const pad = (n: number): Uint8Array => new Uint8Array(up8(n) - n);

/**
 * An array of typed arrays of one kind (undefined among them allowed) as one array of that kind, all of
 * theirs one after another, and where each ends (-1: undefined); undefined for any other array.
 */
function packedOf(v: readonly unknown[]): { all: Typed; ends: Float64Array } | undefined {
  let kind: Kind | undefined;
  let total = 0;
  for (const a of v) {
    if (a === undefined) continue;
    if (!ArrayBuffer.isView(a)) return undefined;
    const k = kindOf(a);
    if (!k || (kind !== undefined && k !== kind)) return undefined;
    kind = k;
    total += (a as Typed).length;
  }
  if (kind === undefined) return undefined;
  const all = new KINDS[kind](total);
  const ends = new Float64Array(v.length);
  let at = 0;
  v.forEach((a, i) => {
    if (a === undefined) return void (ends[i] = -1);
    all.set(a as Typed, at);
    ends[i] = at += (a as Typed).length;
  });
  return { all, ends };
}

/**
 * `value` as bytes: a header (the JSON text's length and the arrays' count, float64), the JSON text,
 * the arrays' lengths (float64) and kinds (a byte each), then each array's bytes, each part 8-aligned.
 */
export function typedBytes(value: unknown): ArrayBufferView[] {
  const arrays: Typed[] = [];
  // (each object once: a value that shares one is not kept, as reading it back would not share it)
  const seen = new Set<object>();
  const once = (v: object): void => {
    if (seen.has(v)) throw new Error('typed-bytes: a value held twice is not kept');
    seen.add(v);
  };
  const encode = (v: unknown): unknown => {
    if (v === null || typeof v === 'number' || typeof v === 'boolean') {
      if (typeof v === 'number' && !Number.isFinite(v)) throw new Error(`typed-bytes: ${v} is not kept`);
      return v;
    }
    if (typeof v === 'string') {
      if (v.startsWith(MARK)) throw new Error('typed-bytes: a string starting with U+0000 is not kept');
      return v;
    }
    if (typeof v !== 'object') throw new Error(`typed-bytes: a ${typeof v} is not kept`);
    once(v);
    if (ArrayBuffer.isView(v)) {
      if (!kindOf(v)) throw new Error('typed-bytes: an array view of another kind is not kept');
      return `${MARK}${arrays.push(v as Typed) - 1}`;
    }
    if (Array.isArray(v)) {
      const packed = packedOf(v);
      if (packed) {
        for (const a of v) if (a !== undefined) once(a as object);
        return { [PACKED]: arrays.push(packed.all) - 1, ends: arrays.push(packed.ends) - 1 };
      }
      const out = new Array<unknown>(v.length);
      for (let i = 0; i < v.length; i++) out[i] = v[i] === undefined ? { [HOLE]: 1 } : encode(v[i]);
      return out;
    }
    if (v instanceof Map) {
      const keys = [...v.keys()];
      if (!keys.every((k) => typeof k === 'string') && !keys.every((k) => typeof k === 'number')) {
        throw new Error('typed-bytes: a Map keyed otherwise than by strings or by numbers is not kept');
      }
      return { [MAP]: keys, values: encode([...v.values()]) };
    }
    if (Object.getPrototypeOf(v) === Object.prototype) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (x === undefined) throw new Error(`typed-bytes: property ${k} is undefined`);
        if (k.startsWith(MARK)) throw new Error(`typed-bytes: property ${JSON.stringify(k)} is not kept`);
        out[k] = encode(x);
      }
      return out;
    }
    throw new Error('typed-bytes: an instance of a class is not kept');
  };
  const json = Buffer.from(JSON.stringify(encode(value)), 'utf8');
  const kinds = Uint8Array.from(arrays, (a) => KIND_CODES.indexOf(kindOf(a)!));
  const parts: ArrayBufferView[] = [new Float64Array([json.length, arrays.length]), json, pad(json.length)];
  parts.push(Float64Array.from(arrays, (a) => a.length), kinds, pad(kinds.length));
  for (const a of arrays) parts.push(a, pad(a.byteLength));
  return parts;
}

/** The value typedBytes wrote, its arrays as views onto `bytes` (8-aligned); undefined when they are not laid out so. */
export function fromTypedBytes(bytes: Uint8Array): unknown {
  if (bytes.byteOffset % 8 !== 0 || bytes.length < 16) return undefined;
  const [jsonLength, count] = new Float64Array(bytes.buffer, bytes.byteOffset, 2);
  if (!Number.isSafeInteger(jsonLength) || !Number.isSafeInteger(count) || jsonLength < 0 || count < 0) return undefined;
  let at = 16 + up8(jsonLength);
  if (at + 8 * count + up8(count) > bytes.length) return undefined;
  const lengths = new Float64Array(bytes.buffer, bytes.byteOffset + at, count);
  at += 8 * count;
  const kinds = new Uint8Array(bytes.buffer, bytes.byteOffset + at, count);
  at += up8(count);
  const views = new Array<Typed>(count);
  for (let i = 0; i < count; i++) {
    const Ctor = KINDS[KIND_CODES[kinds[i]]];
    const n = lengths[i];
    if (!Ctor || !Number.isSafeInteger(n) || n < 0 || at + n * Ctor.BYTES_PER_ELEMENT > bytes.length) return undefined;
    views[i] = new Ctor(bytes.buffer as ArrayBuffer, bytes.byteOffset + at, n);
    at += up8(n * Ctor.BYTES_PER_ELEMENT);
  }
  if (at !== bytes.length) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + jsonLength)));
  } catch {
    return undefined;
  }
  let bad = false;
  const decode = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (!v.startsWith(MARK)) return v;
      const made = views[Number(v.slice(1))];
      if (!made) bad = true;
      return made;
    }
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      const out = new Array<unknown>(v.length);
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        out[i] = x !== null && typeof x === 'object' && HOLE in x ? undefined : decode(x);
      }
      return out;
    }
    const o = v as Record<string, unknown>;
    if (PACKED in o) return unpacked(views[o[PACKED] as number], views[o.ends as number]);
    if (MAP in o) {
      const keys = o[MAP] as Array<string | number>;
      const values = decode(o.values) as unknown[];
      const map = new Map<string | number, unknown>();
      for (let i = 0; i < keys.length; i++) map.set(keys[i], values[i]);
      return map;
    }
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(o)) out[k] = decode(o[k]);
    return out;
  };
  // (each array packed as packedOf packed it: a view onto its part of `all`)
  const unpacked = (all: Typed | undefined, ends: Typed | undefined): unknown[] | undefined => {
    if (!all || !(ends instanceof Float64Array)) return void (bad = true);
    const out = new Array<unknown>(ends.length);
    for (let i = 0, at = 0; i < ends.length; i++) {
      const end = ends[i];
      if (end < 0) out[i] = undefined;
      else if (end < at || end > all.length) return void (bad = true);
      else out[i] = all.subarray(at, (at = end));
    }
    return out;
  };
  const value = decode(parsed);
  return bad ? undefined : value;
}

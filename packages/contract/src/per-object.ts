/**
 * `make` worked out once per object and kept while the object lives: what is derived from parts of a state that
 * stay the same objects from one state to the next (a site a build or a delta keeps) is not worked out again.
 */
export const perObject = <K extends object, V>(make: (key: K) => V) => {
  const made = new WeakMap<K, V>();
  return (key: K) => {
    if (made.has(key)) return made.get(key)!;
    const value = make(key);
    made.set(key, value);
    return value;
  };
};

/** An object's JSON, worked out once per object: an entry two states share is the same object, its JSON made once. */
export const jsonOf = perObject((item: object) => JSON.stringify(item));

/**
 * `JSON.stringify(value)` in pieces, for a document whose lists hold entries kept from one state to the next (a site,
 * a live domain): each list entry's piece is its jsonOf, so writing a state after a change costs in proportion to the
 * change, not to the domains it holds, and a long document is written a piece at a time. Objects are walked `depth`
 * levels down; below that, and for list entries, JSON.stringify.
 */
export function* keptJsonPieces(value: unknown, depth = 3): Generator<string> {
  if (Array.isArray(value)) {
    yield '[';
    for (let i = 0; i < value.length; i++) {
      const entry: unknown = value[i];
      if (i) yield ',';
      yield entry !== null && typeof entry === 'object' ? jsonOf(entry) : (JSON.stringify(entry) ?? 'null');
    }
    yield ']';
    return;
  }
  if (value === null || typeof value !== 'object' || depth === 0 || 'toJSON' in value) {
    yield JSON.stringify(value);
    return;
  }
  let first = true;
  yield '{';
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
    yield `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    yield* keptJsonPieces(field, depth - 1);
  }
  yield '}';
}

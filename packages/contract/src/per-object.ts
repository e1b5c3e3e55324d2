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

/**
 * Refuses regular expressions the edge would match with unbounded backtracking: a quantified group whose body
 * itself repeats a variable-length part (`(a+)+`, `(\w*x)*`), and an alternation under an unbounded quantifier
 * whose branches can start with the same character or match nothing (`(a|ab)*`, `(\w|\d)+`, `(a|)*`).
 * The parser covers the PCRE subset a rule needs; anything it cannot read is refused as invalid.
 */
type CharSet = (cp: number) => boolean;
type Node =
  | { t: 'char'; set: CharSet }
  | { t: 'empty' }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; branches: Node[] }
  | { t: 'quant'; body: Node; min: number; max: number };

export const REGEX_MAX_LENGTH = 512;
/** A bounded repeat above this many counts as unbounded. */
const LARGE_REPEAT = 16;

const NONE: CharSet = () => false;
const ANY: CharSet = () => true;
const one = (c: number): CharSet => (cp) => cp === c;
const union = (a: CharSet, b: CharSet): CharSet => (cp) => a(cp) || b(cp);
const isDigit: CharSet = (cp) => cp >= 48 && cp <= 57;
const isWord: CharSet = (cp) => isDigit(cp) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122) || cp === 95;
const isSpace: CharSet = (cp) => cp === 32 || (cp >= 9 && cp <= 13);
const CLASSES: Record<string, CharSet> = {
  d: isDigit, D: (cp) => !isDigit(cp), w: isWord, W: (cp) => !isWord(cp), s: isSpace, S: (cp) => !isSpace(cp),
};
const ANCHORS = new Set(['b', 'B', 'A', 'z', 'Z', 'G']);
/** Enough code points to find an overlap between the sets a parser builds. */
const overlaps = (a: CharSet, b: CharSet) => {
  for (let cp = 0; cp < 0x800; cp++) if (a(cp) && b(cp)) return true;
  return false;
};

class Parser {
  i = 0;
  constructor(readonly src: string) {}
  fail(message: string): never {
    throw new Error(`${message} at position ${this.i}`);
  }
  peek() {
    return this.src[this.i];
  }
  parseAlt(): Node {
    const branches = [this.parseSeq()];
    while (this.peek() === '|') {
      this.i++;
      branches.push(this.parseSeq());
    }
    return branches.length === 1 ? branches[0] : { t: 'alt', branches };
  }
  parseSeq(): Node {
    const items: Node[] = [];
    while (this.i < this.src.length && this.peek() !== '|' && this.peek() !== ')') items.push(this.parseQuantified());
    return { t: 'seq', items };
  }
  parseQuantified(): Node {
    let node = this.parseAtom();
    for (;;) {
      const q = this.readQuantifier();
      if (!q) return node;
      if (node.t === 'empty') this.fail('nothing to repeat');
      node = { t: 'quant', body: node, ...q };
      if (this.peek() === '?' || this.peek() === '+') this.i++;
    }
  }
  readQuantifier(): { min: number; max: number } | undefined {
    const c = this.peek();
    if (c === '*') return this.i++, { min: 0, max: Infinity };
    if (c === '+') return this.i++, { min: 1, max: Infinity };
    if (c === '?') return this.i++, { min: 0, max: 1 };
    if (c !== '{') return undefined;
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
    if (!m) return undefined;
    this.i += m[0].length;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    if (max < min) this.fail('repeat range out of order');
    return { min, max };
  }
  parseAtom(): Node {
    const c = this.src[this.i++];
    if (c === '(') return this.parseGroup();
    if (c === '[') return { t: 'char', set: this.parseClass() };
    if (c === '.') return { t: 'char', set: ANY };
    if (c === '^' || c === '$') return { t: 'empty' };
    if (c === '\\') return this.parseEscape();
    if (c === '*' || c === '+' || c === '?') this.fail('nothing to repeat');
    return { t: 'char', set: one(c.codePointAt(0) as number) };
  }
  parseGroup(): Node {
    let zeroWidth = false;
    if (this.peek() === '?') {
      const m = /^\?(:|=|!|<=|<!|P?<[A-Za-z_]\w*>|'[A-Za-z_]\w*'|[imsx-]+:|[imsx-]+\))/.exec(this.src.slice(this.i));
      if (!m) this.fail('unsupported group');
      if (m[1].endsWith(')')) return (this.i += m[0].length), { t: 'empty' };
      zeroWidth = ['=', '!', '<=', '<!'].includes(m[1]);
      this.i += m[0].length;
    }
    const body = this.parseAlt();
    if (this.src[this.i++] !== ')') this.fail('missing )');
    return zeroWidth ? { t: 'empty' } : body;
  }
  parseEscape(): Node {
    const c = this.src[this.i++];
    if (c === undefined) this.fail('trailing backslash');
    if (ANCHORS.has(c)) return { t: 'empty' };
    if (/[1-9]/.test(c)) return { t: 'quant', body: { t: 'char', set: ANY }, min: 0, max: Infinity };
    return { t: 'char', set: CLASSES[c] ?? one(this.escapeCode(c)) };
  }
  escapeCode(c: string): number {
    const hex = c === 'x' ? /^[0-9a-fA-F]{2}/.exec(this.src.slice(this.i)) : c === 'u' ? /^[0-9a-fA-F]{4}/.exec(this.src.slice(this.i)) : null;
    if (hex) {
      this.i += hex[0].length;
      return parseInt(hex[0], 16);
    }
    const named: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11 };
    return named[c] ?? (c.codePointAt(0) as number);
  }
  parseClass(): CharSet {
    const negated = this.peek() === '^';
    if (negated) this.i++;
    let set = NONE;
    let first = true;
    while (this.peek() !== ']' || first) {
      if (this.i >= this.src.length) this.fail('missing ]');
      first = false;
      const lo = this.classChar();
      if (this.peek() === '-' && this.src[this.i + 1] !== ']' && this.src[this.i + 1] !== undefined && typeof lo === 'number') {
        this.i++;
        const hi = this.classChar();
        if (typeof hi !== 'number' || hi < lo) this.fail('class range out of order');
        set = union(set, (cp) => cp >= lo && cp <= (hi as number));
      } else {
        set = union(set, typeof lo === 'number' ? one(lo) : lo);
      }
    }
    this.i++;
    return negated ? (cp) => !set(cp) : set;
  }
  classChar(): number | CharSet {
    const c = this.src[this.i++];
    if (c !== '\\') return c.codePointAt(0) as number;
    const e = this.src[this.i++];
    if (e === undefined) this.fail('trailing backslash');
    return CLASSES[e] ?? this.escapeCode(e);
  }
}

const nullable = (n: Node): boolean =>
  n.t === 'empty' ? true
  : n.t === 'char' ? false
  : n.t === 'seq' ? n.items.every(nullable)
  : n.t === 'alt' ? n.branches.some(nullable)
  : n.min === 0 || nullable(n.body);

const firstSet = (n: Node): CharSet => {
  if (n.t === 'char') return n.set;
  if (n.t === 'empty') return NONE;
  if (n.t === 'alt') return n.branches.map(firstSet).reduce(union, NONE);
  if (n.t === 'quant') return firstSet(n.body);
  let set = NONE;
  for (const item of n.items) {
    set = union(set, firstSet(item));
    if (!nullable(item)) break;
  }
  return set;
};

/** Does the node contain a repeat that can match a varying number of times more than once? */
const hasVariableRepeat = (n: Node): boolean =>
  n.t === 'quant' ? (n.max > 1 && n.max > n.min) || hasVariableRepeat(n.body)
  : n.t === 'seq' ? n.items.some(hasVariableRepeat)
  : n.t === 'alt' ? n.branches.some(hasVariableRepeat)
  : false;

const alternationOf = (n: Node): Extract<Node, { t: 'alt' }> | undefined =>
  n.t === 'alt' ? n : n.t === 'seq' && n.items.length === 1 ? alternationOf(n.items[0]) : undefined;

function findProblem(n: Node): string | undefined {
  if (n.t === 'seq') return n.items.map(findProblem).find(Boolean);
  if (n.t === 'alt') return n.branches.map(findProblem).find(Boolean);
  if (n.t !== 'quant') return undefined;
  if (n.max > LARGE_REPEAT) {
    if (hasVariableRepeat(n.body)) return 'a nested quantifier (a repeated group that itself repeats) can backtrack without bound';
    const alt = alternationOf(n.body);
    if (alt) {
      if (alt.branches.some(nullable)) return 'an alternation under a quantifier has a branch that matches nothing';
      const sets = alt.branches.map(firstSet);
      for (let a = 0; a < sets.length; a++) {
        for (let b = a + 1; b < sets.length; b++) {
          if (overlaps(sets[a], sets[b])) return 'overlapping alternatives under a quantifier can backtrack without bound';
        }
      }
    }
  }
  return findProblem(n.body);
}

/** Why the pattern is refused, or undefined when the edge can run it safely. */
export function regexProblem(pattern: string): string | undefined {
  if (pattern.length > REGEX_MAX_LENGTH) return `longer than ${REGEX_MAX_LENGTH} characters`;
  let tree: Node;
  try {
    const p = new Parser(pattern);
    tree = p.parseAlt();
    if (p.i < pattern.length) p.fail('unbalanced )');
  } catch (e) {
    return `not a valid regular expression: ${(e as Error).message}`;
  }
  return findProblem(tree);
}

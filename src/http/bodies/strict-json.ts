/**
 * The duplicate-key rule of every JSON body the service reads. JSON.parse keeps the last of two
 * equal keys, so `{"title":"a","title":"b"}` would mean "b" here and possibly "a" to a proxy, a WAF
 * or a log reader that checked the body first: for an API whose inputs guard credentials, a body
 * that means two things is refused (docs/decisions.md).
 *
 * This is a single linear scan over text that JSON.parse has already accepted (so it needs no error
 * handling of its own): strings are skipped as a whole, and only object keys are collected, one set
 * per open object. Keys are compared by value, so an escaped spelling of the same key counts.
 */
export class DuplicateKeyError extends SyntaxError {
  override name = 'DuplicateKeyError';
  constructor(readonly key: string) {
    super(`the key ${JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key)} appears twice`);
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Throws DuplicateKeyError for the first object in `text` (valid JSON) that repeats a key. */
export function assertNoDuplicateKeys(text: string): void {
  // One entry per open container: the keys seen so far for an object, null for an array.
  const open: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let end = i + 1;
      let escaped = false;
      for (;;) {
        const d = text.charCodeAt(end);
        if (d === BACKSLASH) {
          escaped = true;
          end += 2;
        } else if (d === QUOTE) break;
        else end++;
      }
      if (expectKey) {
        const key = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        const keys = open[open.length - 1]!;
        if (keys.has(key)) throw new DuplicateKeyError(key);
        keys.add(key);
        expectKey = false;
      }
      i = end;
    } else if (c === 0x7b /* { */) {
      open.push(new Set());
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      open.push(null);
      expectKey = false;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      open.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      expectKey = open[open.length - 1] instanceof Set;
    }
  }
}

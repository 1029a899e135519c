/**
 * Chunk URL signatures kept as the one hex text they were made as (64 hex digits each), rather than
 * as one string per chunk. A maximum create answers 100,000 signatures; as separate strings they are
 * 100,000 small objects that live until the answer is written, and every young-generation garbage
 * collection meanwhile copies them (scavenges of 100-200 ms on a busy machine, holding every other
 * request). As one text per file they are ten large strings the collector never copies, and the JSON
 * of a slice of them is made only when that slice is written (src/http/answers/large-json.ts).
 *
 * The `signatures` array of the answer is still there for any other reader: made on first read.
 */
export interface SignatureText {
  /** How many signatures: the file's chunks. */
  readonly count: number;
  /** The JSON of signatures [from, to), comma-separated, without the brackets. */
  json(from: number, to: number): string;
}

/** The key under which an answer's uploadUrls carries its SignatureText. */
export const SIGNATURE_TEXT: unique symbol = Symbol('signatureText');

const WIDTH = 64;

/**
 * The signatures of chunks 1..count, `hex` holding those of `numbers` (ascending chunk numbers;
 * null: every chunk, in order) one after the other; a chunk not in `numbers` has the empty signature.
 */
export function signatureText(hex: string, count: number, numbers: ArrayLike<number> | null): SignatureText {
  let at: Int32Array | null = null;
  if (numbers !== null) {
    at = new Int32Array(count).fill(-1);
    for (let i = 0; i < numbers.length; i++) at[numbers[i]! - 1] = i;
  }
  const one = (n: number): string => {
    const i = at === null ? n : at[n]!;
    return i < 0 ? '' : hex.slice(i * WIDTH, (i + 1) * WIDTH);
  };
  return {
    count,
    json(from, to) {
      const parts: string[] = [];
      for (let n = from; n < Math.min(to, count); n++) parts.push(one(n));
      return parts.length === 0 ? '' : `"${parts.join('","')}"`;
    },
  };
}

/** Every signature as its own string (what a reader of `signatures` gets). */
export function signatureStrings(text: SignatureText): string[] {
  return text.count === 0 ? [] : (JSON.parse(`[${text.json(0, text.count)}]`) as string[]);
}

/** The SignatureText `value` carries, if it is an uploadUrls made with one. */
export function signatureTextOf(value: unknown): SignatureText | undefined {
  return (value as { [SIGNATURE_TEXT]?: SignatureText } | null)?.[SIGNATURE_TEXT];
}

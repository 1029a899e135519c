/**
 * The one rule for bidirectional controls in file names, on every surface that shows or writes a
 * name: the page (list, viewer, activity, upload rows), the zip's entries, the CLI's output and the
 * files the CLI and the browser save.
 *
 * A name comes from whoever uploaded it, and an invisible control can reorder what a reader sees:
 * `invoice\u202Egpj.exe` (a right-to-left override inside) reads as "invoiceexe.jpg". Controls are
 * shown, not applied: each is replaced by a visible mark naming it, `[U+202E]`, so the name reads
 * `invoice[U+202E]gpj.exe` wherever it appears and a file is saved under that name too. The rule is
 * idempotent (a shown name has no controls left) and changes nothing else: right-to-left names
 * written without controls (Hebrew, Arabic) keep their natural order, which the page isolates from
 * the text around them.
 *
 * The controls: the embeddings and overrides (U+202A–U+202E), the isolates (U+2066–U+2069) and the
 * marks (U+200E, U+200F, U+061C). A mark alone can reorder digits and punctuation (`a\u200F12 34`
 * reads "a34 12"), and a file name never needs one, so the marks count too.
 *
 * Invisible characters are shown the same way: the zero-width space, non-joiner and joiner
 * (U+200B–U+200D), the word joiner (U+2060) and the byte-order mark (U+FEFF) take no room, so
 * `pass\u200Bword.txt` would read as "password.txt" while being another name.
 */

const BIDI_CONTROLS = /[\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

/** The visible mark that stands for a control: `[U+202E]`. */
function mark(control: string): string {
  return `[U+${control.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`;
}

/** `name` with each bidirectional control or invisible character replaced by its visible mark (`[U+202E]`); the rest unchanged. */
export function shownName(name: string): string {
  return name.replace(BIDI_CONTROLS, mark);
}

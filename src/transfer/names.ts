/**
 * The one rule for file names with folders in them, for every client (CLI, library, page, zip):
 *
 * - **Stored**: a file's (encrypted) name is its path relative to what was picked, with `/` between
 *   folders: `a/sub/b.txt` for `b.txt` in a picked folder `a` (the page's folder picker and drop),
 *   or a relative path given to the CLI (`webfolder upload a/sub/b.txt`). `uploadName` cleans it.
 * - **Saved into a directory** (the CLI's and the library's `download`, each entry of "Download all"
 *   as a zip): the same folders are recreated below the destination (`savePath`).
 * - **Saved as a single file** (one download in the browser, which cannot create folders): the last
 *   segment, `b.txt` (`saveName`).
 *
 * Names come from other people, so reading them is defensive: `\` counts as a separator too (a
 * Windows client may send one), and empty, `.` and `..` segments are dropped, so a saved path never
 * leaves the destination; control characters become `_`; bidirectional controls become their
 * visible marks (`[U+202E]`, src/domain/shown-names.ts), so that a saved name reads as the page
 * shows it; a segment is cut at 255 characters.
 *
 * A saved name (a single download, a zip entry, a file the CLI writes) must also be one every system
 * can create, Windows included, so that a zip made here extracts there: the characters Windows
 * forbids (`<>:"|?*`) become `_`, trailing dots and spaces go, and a device name (`CON`, `NUL`,
 * `COM1`, `LPT1` …, with any extension) gets a leading `_` (`portableSegment`).
 */

import { shownName } from '../domain/shown-names.js';

/** The folder segments and file name of a stored name, cleaned; empty when nothing usable is left. */
export function nameSegments(name: string): string[] {
  return name
    .split(/[/\\]/)
    .map((segment) =>
      shownName(segment)
        // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
        .replace(/[\u0000-\u001f\u007f]/g, '_')
        .trim()
        .slice(0, 255),
    )
    .filter((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

const WINDOWS_FORBIDDEN = /[<>:"|?*]/g;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(\.|$)/i;

/** A cleaned segment as every system can create it (see above); empty when nothing is left. */
function portableSegment(segment: string): string {
  const kept = segment.replace(WINDOWS_FORBIDDEN, '_').replace(/[. ]+$/, '');
  return WINDOWS_DEVICE.test(kept) ? `_${kept}` : kept;
}

/** The segments of a saved name: cleaned, then portable. */
function savedSegments(name: string): string[] {
  return nameSegments(name)
    .map(portableSegment)
    .filter((segment) => segment !== '');
}

/** The name to store for a relative path (`a\\sub/./b.txt` → `a/sub/b.txt`); `fallback` when none is left. */
export function uploadName(relativePath: string, fallback = 'file'): string {
  return nameSegments(relativePath).join('/') || fallback;
}

/** Where a file is saved below a destination directory or inside a zip: `a/sub/b.txt`. */
export function savePath(name: string, fallback: string): string {
  return savedSegments(name).join('/') || fallback;
}

/** The file name of a single download, which cannot create folders: the last segment, `b.txt`. */
export function saveName(name: string, fallback: string): string {
  return savedSegments(name).pop() ?? fallback;
}

/**
 * Save paths made unique (`a.txt`, `a (2).txt`) so that no entry of a zip or directory hides another;
 * each is `savePath` of the name (`file` when nothing usable is left).
 */
export function uniqueNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((raw) => {
    const name = savePath(raw, 'file');
    if (!seen.has(name)) {
      seen.add(name);
      return name;
    }
    for (let i = 2; ; i++) {
      const candidate = numbered(name, i);
      if (!seen.has(candidate)) {
        seen.add(candidate);
        return candidate;
      }
    }
  });
}

/** `a/b.txt` with a number: `a/b (2).txt` (the number goes before the extension of the last segment). */
export function numbered(path: string, n: number): string {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  const [stem, ext] = dot > slash + 1 ? [path.slice(0, dot), path.slice(dot)] : [path, ''];
  return `${stem} (${n})${ext}`;
}

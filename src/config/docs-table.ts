import { flagOf, SECTIONS, type Variable } from './variables.js';

/**
 * The tables of docs/configuration.md, made from the table of variables (./variables.ts): each
 * section's table stands between `<!-- config: <section> -->` and `<!-- /config -->`, and the prose
 * around it is the page's own. `npm run docs:config` writes them; a test fails while the page differs
 * from what this makes.
 */
export type SectionId = keyof typeof SECTIONS;

const HEAD = '| variable | flag | default | bounds | meaning |\n|---|---|---|---|---|';

function row(name: string, variable: Variable): string {
  return `| \`${name}\` | \`${flagOf(name)}\` | ${variable.shownDefault} | ${variable.bounds} | ${variable.meaning} |`;
}

/** The reference's table of one section. */
export function sectionTable(id: SectionId): string {
  const variables = Object.entries(SECTIONS[id].variables as Readonly<Record<string, Variable>>);
  return [HEAD, ...variables.map(([name, variable]) => row(name, variable))].join('\n');
}

const MARKED = /<!-- config: ([A-Za-z0-9]+) -->\n[\s\S]*?<!-- \/config -->/g;

/**
 * `markdown` with every marked table made anew. Throws on a marker naming no section, and unless
 * every section has exactly one table: a variable missing from the reference is an error, not a gap.
 */
export function withConfigTables(markdown: string): string {
  const seen: string[] = [];
  const made = markdown.replace(MARKED, (_whole, id: string) => {
    if (!(id in SECTIONS)) throw new Error(`docs: no configuration section "${id}"`);
    seen.push(id);
    return `<!-- config: ${id} -->\n\n${sectionTable(id as SectionId)}\n\n<!-- /config -->`;
  });
  const missing = Object.keys(SECTIONS).filter((id) => seen.filter((s) => s === id).length !== 1);
  if (missing.length > 0) throw new Error(`docs: each configuration section needs one table: ${missing.join(', ')}`);
  return made;
}

// Writes the tables of docs/configuration.md from the table of variables (src/config/variables.ts):
// `npm run docs:config` after a change there. test/docs/site.test.ts fails while they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { withConfigTables } from '../src/config/docs-table.js';

const path = new URL('../docs/configuration.md', import.meta.url);
writeFileSync(path, withConfigTables(readFileSync(path, 'utf8')));

import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import type { Plugin } from 'vite';
import { answerSchemas, PAGE_ANSWERS } from '../src/contract/answers.js';
import { AJV_OPTIONS } from '../src/contract/validation.js';

/**
 * The page's answer validators, compiled at build time: the page's CSP (`script-src 'self'`) forbids
 * the code generation Ajv does at run time, so the module src/contract/answer-validators.ts (which
 * compiles on first use, in Node) is replaced in the bundle by the same schemas compiled here by
 * Ajv's standalone mode, with the contract's Ajv options and its wording (src/contract/error-text.ts).
 * Same schemas, same engine, same messages: one validator, compiled once, ahead of time.
 */
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const REPLACED = here('../src/contract/answer-validators.ts');
const ERROR_TEXT = here('../src/contract/error-text.ts');
const VIRTUAL = '\0webfolder-answer-validators';
const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ??
  standaloneModule) as typeof import('ajv/dist/standalone/index.js').default;

export function pageAnswerValidatorsSource(): string {
  const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true, esm: true } });
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: ['string', 'object'] });
  for (const name of PAGE_ANSWERS) ajv.addSchema(answerSchemas[name], name);
  const code = standaloneCode(ajv, Object.fromEntries(PAGE_ANSWERS.map((name) => [name, name])));
  // A run-time helper (format checks, Unicode lengths) would be a CommonJS require the bundle cannot
  // load: answers.ts keeps to keywords that need none, and this keeps it so.
  if (/\brequire\(/.test(code)) throw new Error('a page answer schema needs an Ajv run-time helper: see answers.ts');
  return `${code}
import { describeError } from ${JSON.stringify(ERROR_TEXT)};
const compiled = { ${PAGE_ANSWERS.join(', ')} };
export function answerValidator(name) {
  const check = compiled[name];
  if (!check) throw new Error('no answer validator for ' + name + ' in the page (PAGE_ANSWERS)');
  return (value) =>
    check(value) ? { ok: true, value } : { ok: false, error: describeError(check.errors[0], 'answer') };
}
`;
}

/** The vite plugin: the bundle's copy of answer-validators.ts is the ahead-of-time one. */
export function pageAnswerValidators(): Plugin {
  return {
    name: 'webfolder-answer-validators',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!/answer-validators\.(js|ts)$/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === REPLACED ? VIRTUAL : null;
    },
    load(id) {
      return id === VIRTUAL ? pageAnswerValidatorsSource() : null;
    },
  };
}

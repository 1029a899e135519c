import { type AnswerName, answerSchemas } from './answers.js';
import { compileShapeValidator, type Validated } from './validation.js';

/**
 * The validator of each answer (./answers.ts), compiled once, on first use, by the contract's one
 * Ajv instance (./validation.ts), with its wording (the schema only: the control-character rule is
 * for what a server accepts, and data stored before it must still be read). In the page's bundle this
 * module is replaced by the same validators compiled ahead of time (web/vite.config.ts): the page's
 * CSP forbids compiling code at run time. Both export exactly `answerValidator`.
 */
const compiled = new Map<AnswerName, (value: unknown) => Validated<unknown>>();

export function answerValidator(name: AnswerName): (value: unknown) => Validated<unknown> {
  let check = compiled.get(name);
  if (!check) {
    check = compileShapeValidator<unknown>(answerSchemas[name], 'answer');
    compiled.set(name, check);
  }
  return check;
}

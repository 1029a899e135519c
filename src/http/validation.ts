import type { FastifyInstance } from 'fastify';
import { compileValidator } from '../contract/validation.js';

/**
 * Fastify's validator for every route's `schema` (params, querystring, body, headers): the
 * contract's own (src/contract/validation.ts), so that a route schema is checked exactly as a use
 * case checks its input, with the same strictness, the same control-character rule and the same messages. A
 * refusal is an Error whose message names the field; the error mapping makes it 400
 * `invalid_request`.
 */
const ROOT_NAMES: Record<string, string> = { querystring: 'query', params: 'path', body: 'body', headers: 'headers' };

export function installValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const part = httpPart ?? 'body';
    const validate = compileValidator(schema, ROOT_NAMES[part] ?? part);
    return (data: unknown) => {
      // Fastify passes an absent body as null: whether a body is required is the use case's to say
      // (the v2 create takes none).
      if (part === 'body' && data === null) return true;
      const checked = validate(data);
      return checked.ok ? true : { error: new Error(checked.error) };
    };
  });
}

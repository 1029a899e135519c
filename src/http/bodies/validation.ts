import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { compileValidator } from '../../contract/validation.js';

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
    // Fastify passes an absent body as null, which no body schema admits: a route whose body is
    // optional says what its absence means before validation (the v2 create: absentBodyIsEmpty).
    return (data: unknown) => {
      const checked = validate(data);
      return checked.ok ? true : { error: new Error(checked.error) };
    };
  });
}

/**
 * A preValidation hook for a route whose body is optional and means the same as `{}` when absent
 * (the v2 create, spec 4.1): the schema then checks, and the handler gets, an empty request. A JSON
 * `null` body is not absent and is refused by the schema.
 */
export function absentBodyIsEmpty(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  if (request.body === undefined) request.body = {};
  done();
}

import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance } from 'fastify';

/**
 * Routes typed from their schemas: a route's params, query, body and replies get the TypeScript
 * types json-schema-to-ts derives from the contract's JSON Schemas (src/contract), the same objects
 * the validator checks and the serialiser writes, so a handler cannot read a field the schema does
 * not have. A default (the v2 create's `mode`) stays optional, as the validator adds none.
 */
export type SchemaTypeProvider = JsonSchemaToTsProvider<{
  ValidatorSchemaOptions: { keepDefaultedPropertiesOptional: true };
  SerializerSchemaOptions: { keepDefaultedPropertiesOptional: true };
}>;

/** The plugin's instance with the schema type provider (Fastify's withTypeProvider). */
export function typed(app: FastifyInstance) {
  return app.withTypeProvider<SchemaTypeProvider>();
}

import type { Config } from '../config/config.js';
import { publishedSchemas } from '../contract/schemas.js';
import { type PublishedSchemaName, schemaPath } from './surfaces.js';

/** A contract schema as published at /schemas/<name>: the same object with an absolute $id. */
export function publishedSchema(config: Config, name: PublishedSchemaName): object {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${config.baseUrl}${schemaPath(name)}`,
    ...publishedSchemas[name],
  };
}

/**
 * `node --import ./typescript5-hook.mjs …`: openapi-typescript prints its output with the
 * TypeScript 5 compiler API, and the project's `typescript` is 7 (a native compiler without that
 * API). This hook hands openapi-typescript's imports of `typescript` the `typescript-5` package
 * (a devDependency alias); every other import resolves as usual.
 */
import { register } from 'node:module';

const hook = `export async function resolve(specifier, context, next) {
  if (specifier === 'typescript' && context.parentURL && context.parentURL.includes('/node_modules/openapi-typescript/'))
    return next('typescript-5', context);
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);

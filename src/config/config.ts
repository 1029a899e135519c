import { flagsToEnv, SECTIONS, type Variable } from './variables.js';

/**
 * Configuration comes from environment variables, or the same names as `--kebab-case` command-line
 * flags (flags win). Every value is checked at start; a bad one stops the start with a message that
 * names the variable. The variables, their parsing, their defaults and the field each fills are one
 * sectioned table (./variables.ts); the `Config` is that table's type, read. See
 * docs/configuration.md for the reference.
 */
type Sections = typeof SECTIONS;
type Part<S extends keyof Sections> = ReturnType<Sections[S]['assemble']>;
type TopSections = { [S in keyof Sections]: Sections[S]['placement'] extends 'top' ? S : never }[keyof Sections];
type OwnSections = Exclude<keyof Sections, TopSections>;
type Intersection<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void ? I : never;

export type Config = Intersection<{ [S in TopSections]: Part<S> }[TopSections]> & {
  readonly [S in OwnSections]: Part<S>;
};

export type S3Config = NonNullable<Config['s3']>;
/** What the instance may mail, per address, client, folder, hour and day (docs/configuration.md#mail). */
export type MailLimits = Config['mail'];

export { ConfigError } from './parsers.js';
export { KNOWN_VARIABLES } from './variables.js';
export type { WebhookEndpoint } from './webhooks.js';

type Source = Readonly<Record<string, string | undefined>>;

/** A section of the table as loadConfig walks it, its types erased. */
interface AnySection {
  readonly placement: 'own' | 'top';
  readonly variables: Readonly<Record<string, Variable>>;
  readonly assemble: (fields: Record<string, unknown>) => unknown;
}

export function loadConfig(env: Source = process.env, argv: readonly string[] = []): Config {
  const src = { ...env, ...flagsToEnv(argv) };
  const config: Record<string, unknown> = {};
  for (const [id, section] of Object.entries(SECTIONS) as unknown as [string, AnySection][]) {
    const fields: Record<string, unknown> = {};
    for (const [name, variable] of Object.entries(section.variables))
      fields[variable.key] = variable.read(src[name], name);
    const part = section.assemble(fields);
    if (section.placement === 'top') Object.assign(config, part);
    else config[id] = part;
  }
  return config as Config;
}

import { resolve } from 'node:path';

/**
 * How a variable's text becomes its value, and what the reference says of it: each parser knows its
 * default and its bounds, so the docs table shows what the code does (./variables.ts, ./docs-table.ts).
 * `raw` is undefined when unset; an empty value counts as unset.
 */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

export interface Parser<T> {
  readonly read: (raw: string | undefined, name: string) => T;
  /** The default as the reference shows it: `8080`, unset … */
  readonly shownDefault: string;
  /** What a value may be, as the reference shows it. */
  readonly bounds: string;
}

const given = (raw: string | undefined): string | undefined =>
  raw === undefined || raw.trim() === '' ? undefined : raw;

const code = (value: string | number) => `\`${value}\``;

/** A whole number between `min` and `max`, or `fallback`. */
export function int(fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): Parser<number> {
  return {
    read(raw, name) {
      if (given(raw) === undefined) return fallback;
      if (!/^-?\d+$/.test(raw!.trim())) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
      const n = Number(raw);
      if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
      return n;
    },
    shownDefault: code(fallback),
    bounds: max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `${min} – ${max}`,
  };
}

/**
 * A value stated in the operator's unit (MiB, seconds, KiB) and kept in the code's (bytes,
 * milliseconds): the reference shows the operator's, the `Config` holds `factor` times it.
 */
export function times(factor: number, parser: Parser<number>): Parser<number> {
  return { ...parser, read: (raw, name) => parser.read(raw, name) * factor };
}

/** A size in MiB where 0 means "none": the bytes, or null. */
export function mibOrNone(): Parser<number | null> {
  const count = int(0, 0, 1024 * 1024 * 1024);
  return {
    read(raw, name) {
      const n = count.read(raw, name);
      return n === 0 ? null : n * 1024 * 1024;
    },
    shownDefault: '`0` (none)',
    bounds: count.bounds,
  };
}

/** A port where 0 means "none": the port, or null. */
export function portOrNone(): Parser<number | null> {
  const port = int(0, 0, 65535);
  return { read: (raw, name) => port.read(raw, name) || null, shownDefault: 'unset', bounds: '1 – 65535' };
}

export function bool(fallback: boolean): Parser<boolean> {
  return {
    read(raw, name) {
      const value = given(raw)?.trim().toLowerCase();
      if (value === undefined) return fallback;
      if (['1', 'true', 'yes', 'on'].includes(value)) return true;
      if (['0', 'false', 'no', 'off'].includes(value)) return false;
      throw new ConfigError(name, `must be true or false, got "${raw}"`);
    },
    shownDefault: code(String(fallback)),
    bounds: '`true` / `false`',
  };
}

/** Checks an absolute URL with one of `protocols` and no query or fragment; drops trailing slashes. */
export function checkUrl(name: string, raw: string, protocols: readonly string[] = HTTP): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol))
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${raw}"`);
  if (parsed.hash || parsed.search) throw new ConfigError(name, 'must not have a query or fragment');
  return raw.replace(/\/+$/, '');
}

const HTTP = ['http:', 'https:'];

/** A URL, or null when unset (a default that depends on other variables is filled in by the section). */
export function url(protocols: readonly string[] = HTTP): Parser<string | null> {
  return {
    read: (raw, name) => (given(raw) === undefined ? null : checkUrl(name, raw!.trim(), protocols)),
    shownDefault: 'unset',
    bounds: protocols === HTTP ? 'absolute `http:`/`https:` URL' : `${protocols.map((p) => code(p)).join(' or ')} URL`,
  };
}

/** Trimmed text, or `fallback` when unset, checked by `check` (which returns what is kept). */
export function text<T extends string | null>(
  fallback: T,
  bounds: string,
  check: (value: string, name: string) => string = (value) => value,
): Parser<string | T> {
  return {
    read: (raw, name) => (given(raw) === undefined ? fallback : check(raw!.trim(), name)),
    shownDefault: fallback === null ? 'unset' : code(fallback),
    bounds,
  };
}

/** A secret: not trimmed (every character counts), at least `min` characters, or null. */
export function secret(min: number): Parser<string | null> {
  return {
    read(raw, name) {
      if (!raw?.length) return null;
      if (raw.length < min) throw new ConfigError(name, `must be at least ${min} characters`);
      return raw;
    },
    shownDefault: 'unset',
    bounds: `at least ${min} characters`,
  };
}

/** A directory, made absolute against the working directory. */
export function directory(fallback: string): Parser<string> {
  return {
    read: (raw) => resolve(given(raw)?.trim() ?? fallback),
    shownDefault: `${code(fallback)} (relative to the working directory)`,
    bounds: 'a writable directory',
  };
}

export function oneOf<const T extends string>(values: readonly T[], fallback: T): Parser<T> {
  return {
    read(raw, name) {
      const value = given(raw)?.trim().toLowerCase() ?? fallback;
      if (!(values as readonly string[]).includes(value))
        throw new ConfigError(name, `must be one of ${values.join(', ')}`);
      return value as T;
    },
    shownDefault: code(fallback),
    bounds: values.map((value) => code(value)).join(', '),
  };
}

/** A comma-separated list of non-empty items. */
export function list(bounds: string): Parser<string[]> {
  return {
    read: (raw) =>
      (raw ?? '')
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    shownDefault: 'unset',
    bounds,
  };
}

/** `value` unless shorter than `n` characters. */
export const minLength = (n: number) => (value: string, name: string) => {
  if (value.length < n) throw new ConfigError(name, `must be at least ${n} characters`);
  return value;
};

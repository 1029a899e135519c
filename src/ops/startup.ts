import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config/config.js';
import { unknownVariables } from '../config/variables.js';
import { loggerOptions } from '../http/logging.js';

/**
 * What a person starting the service sees: short readable log lines on a terminal and under
 * `npm start` (pino-pretty; coloured on a terminal only), JSON for log collectors otherwise (a
 * supervisor, a container, a pipe: LOG_FORMAT=json or pretty forces either), and one clear line
 * instead of a stack trace for the common mistakes (the port is taken, DATA_DIR cannot be written).
 * npm names the script it runs in `npm_lifecycle_event`: `npm start` is a person at the first run.
 */
export function humanLogger(
  config: Config,
  isTty = Boolean(process.stdout.isTTY),
  env: NodeJS.ProcessEnv = process.env,
): FastifyServerOptions['logger'] {
  const base = loggerOptions(config.ops.logLevel) as Record<string, unknown>;
  const byHand = isTty || env.npm_lifecycle_event === 'start';
  const pretty = config.ops.logFormat === 'pretty' || (config.ops.logFormat === 'auto' && byHand);
  if (!pretty) return base as FastifyServerOptions['logger'];
  return {
    ...base,
    transport: {
      target: 'pino-pretty',
      options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,reqId', singleLine: true, colorize: isTty },
    },
  } as FastifyServerOptions['logger'];
}

/** A start-up failure explained in one line. */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** DATA_DIR holds the SQLite file, local blobs or the signing secret unless PostgreSQL and S3 are both set. */
export function usesDataDir(config: Config): boolean {
  return !config.databaseUrl || !config.s3;
}

export async function checkDataDir(config: Config): Promise<void> {
  if (!usesDataDir(config)) return;
  const probe = join(config.dataDir, `.write-check-${randomBytes(4).toString('hex')}`);
  try {
    await mkdir(config.dataDir, { recursive: true });
    await writeFile(probe, 'ok');
    await rm(probe, { force: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    const uid = typeof process.getuid === 'function' ? ` (this process runs as uid ${process.getuid()})` : '';
    throw new StartupError(
      `DATA_DIR ${config.dataDir} is not writable${uid}: ${code}. Create it and give this user write access, or set DATA_DIR to a directory it can write.`,
    );
  }
}

export function explainListenError(error: unknown, host: string, port: number): StartupError | null {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    return new StartupError(
      `port ${port} on ${host} is already in use (another webfolder, or another program, listens there). Stop it or set PORT to a free port.`,
    );
  if (code === 'EACCES')
    return new StartupError(
      `no permission to listen on port ${port} on ${host}: use a port above 1023, or a reverse proxy.`,
    );
  if (code === 'EADDRNOTAVAIL')
    return new StartupError(
      `HOST ${host} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0.`,
    );
  return null;
}

interface Log {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

/**
 * What an operator should know at start that is not an error: environment variables that look meant
 * for webfolder but are not its names (a misspelled one is otherwise silently ignored), and where
 * the metrics are (nowhere unless asked for: they are never public by default).
 */
export function logStartNotes(log: Log, config: Config, env: Readonly<Record<string, string | undefined>>): void {
  for (const { name, suggestion } of unknownVariables(env))
    log.warn(
      { variable: name, ...(suggestion ? { didYouMean: suggestion } : {}) },
      `unknown configuration variable ${name} is ignored${suggestion ? `: did you mean ${suggestion}?` : ''} (docs/configuration.md lists them)`,
    );
  const { metricsPort, metricsHost, metricsToken } = config.ops;
  if (metricsPort !== null) log.info({ metrics: `http://${metricsHost}:${metricsPort}/metrics` }, 'metrics listener');
  else if (metricsToken === null)
    log.info(
      {},
      'metrics are off: set METRICS_PORT (own listener, loopback by default) or METRICS_TOKEN (main port, bearer token)',
    );
}

/**
 * The start-up line, readable in any log format: where the service listens (and the site, when it
 * is elsewhere) and where its data is.
 */
export function readyLine(config: Config): string {
  const bare = (url: string) => url.replace(/\/+$/, '');
  const site = bare(config.webUrl) !== bare(config.baseUrl) ? `, the site at ${config.webUrl}` : '';
  const store = config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`;
  const blobs = config.s3 ? `files in the S3 bucket ${config.s3.bucket}` : `files in ${config.dataDir}`;
  return `webfolder is ready at ${config.baseUrl}${site} (data: ${store}; ${blobs})`;
}

import { type Config, ConfigError, loadConfig } from './config/config.js';
import {
  checkDataDir,
  explainListenError,
  humanLogger,
  logStartNotes,
  readyLine,
  StartupError,
} from './ops/startup.js';
import { VERSION } from './ops/version.js';
import { buildServer } from './server.js';
import { SchemaTooNewError } from './store/schema.js';

/** `node dist/main.js [--port 8080 ...]`: starts the service on the configured backends. */
export async function main(argv: readonly string[]): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env, argv);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`webfolder: invalid configuration: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  await checkDataDir(config);
  const server = await buildServer(config, { logger: humanLogger(config) });
  let stopping = false;
  const shutdown = (signal: string) => {
    // A second signal while draining means "now".
    if (stopping) process.exit(1);
    stopping = true;
    server.app.log.info(
      { signal, graceSeconds: config.ops.shutdownGraceSeconds },
      'shutting down: finishing requests in flight',
    );
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  try {
    await server.app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await server.close().catch(() => {});
    throw explainListenError(error, config.host, config.port) ?? error;
  }
  logStartNotes(server.app.log, config, process.env);
  server.app.log.info(
    {
      version: VERSION,
      baseUrl: config.baseUrl,
      webUrl: config.webUrl,
      docsUrl: config.docsUrl,
      dataDir: config.dataDir,
      schemaVersion: server.services.store.schema.version,
    },
    readyLine(config),
  );
}

const isEntryPoint =
  import.meta.url === `file://${process.argv[1]}` ||
  process.argv[1]?.endsWith('/main.js') ||
  process.argv[1]?.endsWith('/main.ts');
if (isEntryPoint) main(process.argv.slice(2)).catch(failedToStart);

/**
 * Ends a start that `main` rejected, for every launcher (this entry and `webfolder serve`): the usual
 * mistakes (port taken, DATA_DIR not writable, a database from a newer version) get one line;
 * anything else is a bug or an outage and keeps its stack.
 */
export function failedToStart(error: unknown): never {
  const text =
    error instanceof StartupError || error instanceof SchemaTooNewError
      ? error.message
      : error instanceof Error
        ? error.stack
        : String(error);
  process.stderr.write(`webfolder: failed to start: ${text}\n`);
  process.exit(1);
}

import { type Config, ConfigError, loadConfig } from './config/config.js';
import { buildServer } from './server.js';

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
  const server = await buildServer(config);
  const shutdown = (signal: string) => {
    server.app.log.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  await server.app.listen({ port: config.port, host: config.host });
  server.app.log.info(
    { baseUrl: config.baseUrl, webUrl: config.webUrl, docsUrl: config.docsUrl, dataDir: config.dataDir },
    'webfolder is ready',
  );
}

const isEntryPoint =
  import.meta.url === `file://${process.argv[1]}` ||
  process.argv[1]?.endsWith('/main.js') ||
  process.argv[1]?.endsWith('/main.ts');
if (isEntryPoint) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`webfolder: failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}

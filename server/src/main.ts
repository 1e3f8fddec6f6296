import { ConfigError, readConfig } from './config/config.ts';
import { createLogger } from './logger.ts';
import { startGateway } from './start-gateway.ts';

/** Entry point: config, start, one clear line on where it listens, clean shutdown on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config;
  try {
    config = readConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`gateway: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel });
  let gateway;
  try {
    gateway = await startGateway(config, logger);
  } catch (error) {
    process.stderr.write(`gateway: could not start: ${describeStartError(error, config.port)}\n`);
    process.exit(1);
  }
  logger.info(
    { url: gateway.url, database: gateway.database.description, sandbox: config.isSandbox },
    `gateway listening on ${gateway.url} (database: ${gateway.database.description}; sandbox mode: ${config.isSandbox ? 'on, models are served by simulators' : 'off'})`,
  );
  let isStopping = false;
  const stop = (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    logger.info({ signal }, 'shutting down: no new connections, waiting for in-flight requests');
    gateway.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

function describeStartError(error: unknown, port: number): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return `port ${port} is already in use (set PORT to another port)`;
  if (code === 'EACCES') return `no permission to listen on port ${port}`;
  if (code === 'ECONNREFUSED') return 'the database refused the connection (is PostgreSQL running at DATABASE_URL?)';
  if (code === 'ENOTFOUND') return 'the database host in DATABASE_URL was not found';
  if (code === '28P01') return 'the database rejected the user name or password in DATABASE_URL';
  if (code === '3D000') return 'the database named in DATABASE_URL does not exist';
  return error instanceof Error ? error.message : String(error);
}

await main();

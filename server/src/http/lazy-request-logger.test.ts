import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import pino from 'pino';
import { createLazyRequestLogger } from './lazy-request-logger.ts';

function captureLogger(): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString().trim());
      callback();
    },
  });
  const logger = pino(
    { level: 'info', base: { service: 'gateway' }, timestamp: false, redact: { paths: ['*.credential'] } },
    destination,
  );
  return { logger, lines };
}

describe('createLazyRequestLogger', () => {
  it('writes the same lines as the pino child it stands for', () => {
    const eager = captureLogger();
    const lazy = captureLogger();
    const child = eager.logger.child({ reqId: 'req_1' }, {});
    const lazyChild = createLazyRequestLogger(lazy.logger, { reqId: 'req_1' }, {});
    for (const logger of [child, lazyChild]) {
      logger.info({ status: 200, credential: 'secret' }, 'request');
      logger.warn('plain %s', 'text');
      logger.debug('below the level');
      logger.error({ nested: { credential: 'x' } }, 'failed');
      logger.child({ part: 'inner' }).info('from a grandchild');
    }
    assert.equal(lazy.lines.length, 4);
    assert.deepEqual(lazy.lines, eager.lines);
  });

  it('builds no child logger for a request that never logs, and one for a request that does', () => {
    const { logger } = captureLogger();
    let childCount = 0;
    const counting = Object.assign(Object.create(logger) as pino.Logger, {
      child: (...args: Parameters<pino.Logger['child']>) => {
        childCount += 1;
        return logger.child(...args);
      },
    });
    const silent = createLazyRequestLogger(counting, { reqId: 'req_2' }, {});
    assert.equal(silent.level, 'info');
    assert.equal(childCount, 0);
    const talking = createLazyRequestLogger(counting, { reqId: 'req_3' }, {});
    talking.warn('one');
    talking.warn('two');
    assert.equal(childCount, 1);
  });

  it('takes a route-level log level from Fastify and applies it', () => {
    const { logger, lines } = captureLogger();
    const quiet = createLazyRequestLogger(logger, { reqId: 'req_4' }, { level: 'error' });
    assert.equal(quiet.level, 'error');
    quiet.warn('not written');
    quiet.error('written');
    assert.deepEqual(
      lines.map((line) => (JSON.parse(line) as { msg: string }).msg),
      ['written'],
    );
  });
});

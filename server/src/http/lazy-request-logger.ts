import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString, LogFn } from 'pino';

type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * Fastify's `childLoggerFactory`: the logger of a request (`request.log`, bound to its id) is built when the request
 * first logs. Pino builds a child with options by copying its formatters and running the bindings through redaction,
 * about 0.1 ms and 2 KB a request on the gateway's CPU profile, while most requests never log through it (the request
 * line is written by the root logger with the same `reqId`, app.ts). What a request logs is unchanged.
 */
export function createLazyRequestLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyRequestLogger(parent, bindings, options);
}

function forward(name: LevelName): LogFn {
  return function (this: LazyRequestLogger, ...args: unknown[]) {
    const logger = this.resolve();
    Reflect.apply(logger[name], logger, args);
  };
}

// One function per level for every request logger (fields below point at them; no closure per request).
const levelMethods = {
  fatal: forward('fatal'),
  error: forward('error'),
  warn: forward('warn'),
  info: forward('info'),
  debug: forward('debug'),
  trace: forward('trace'),
  silent: forward('silent'),
} as const satisfies Record<LevelName, LogFn>;

class LazyRequestLogger implements FastifyBaseLogger {
  readonly fatal = levelMethods.fatal;
  readonly error = levelMethods.error;
  readonly warn = levelMethods.warn;
  readonly info = levelMethods.info;
  readonly debug = levelMethods.debug;
  readonly trace = levelMethods.trace;
  readonly silent = levelMethods.silent;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #logger: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  resolve(): FastifyBaseLogger {
    this.#logger ??= this.#parent.child(this.#bindings, this.#options);
    return this.#logger;
  }

  get level(): LevelWithSilentOrString {
    return this.#logger?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.resolve().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.resolve().child(bindings, options);
  }
}

import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';

type Bindings = Parameters<NonNullable<FastifyServerOptions['childLoggerFactory']>>[1];
type ChildOptions = Parameters<NonNullable<FastifyServerOptions['childLoggerFactory']>>[2];
type Line = Parameters<FastifyBaseLogger['info']>;

/**
 * A request's logger that makes the pino child (bound to the request id) at its first line at a level the app logs.
 * One object a request, its methods on the prototype: closures made per request cost the cached answers' calls more
 * than their lookups.
 */
class LazyLogger {
  #made?: FastifyBaseLogger;
  constructor(
    private readonly logger: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly opts: ChildOptions,
  ) {}
  #child() {
    return (this.#made ??= this.logger.child(this.bindings, this.opts));
  }
  #line(level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal', args: Line) {
    if ((this.logger as Logger).isLevelEnabled(level)) (this.#child()[level] as (...a: Line) => void)(...args);
  }
  get level() {
    return (this.#made ?? this.logger).level;
  }
  set level(level: string) {
    this.#child().level = level;
  }
  child(more: Bindings, moreOpts?: ChildOptions) {
    return this.#child().child(more, moreOpts);
  }
  silent() {}
  trace(...args: Line) {
    this.#line('trace', args);
  }
  debug(...args: Line) {
    this.#line('debug', args);
  }
  info(...args: Line) {
    this.#line('info', args);
  }
  warn(...args: Line) {
    this.#line('warn', args);
  }
  error(...args: Line) {
    this.#line('error', args);
  }
  fatal(...args: Line) {
    this.#line('fatal', args);
  }
}

/**
 * A request's logger (the app's, bound to the request id), made only when the request writes a line at a level the
 * app logs: most requests write none, and a pino child per request (its bindings serialized, redaction set up) cost
 * the agents' calls a few per cent of the API's CPU. A route with a log level or serializers of its own gets its child
 * at once.
 */
export const requestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, opts) => {
  if (opts.level || opts.serializers) return logger.child(bindings, opts);
  return new LazyLogger(logger, bindings, opts) as unknown as FastifyBaseLogger;
};

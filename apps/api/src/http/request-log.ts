import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';

type Bindings = Parameters<NonNullable<FastifyServerOptions['childLoggerFactory']>>[1];
type ChildOptions = Parameters<NonNullable<FastifyServerOptions['childLoggerFactory']>>[2];
type Line = Parameters<FastifyBaseLogger['info']>;
const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

/**
 * A request's logger that makes the pino child (bound to the request id) at its first line at a level the app logs.
 * One object a request, its methods (a method a level) on the prototype: closures made per request cost the kept
 * answers' calls more than their lookups.
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
  #line(level: (typeof LEVELS)[number], args: Line) {
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
  static {
    for (const level of LEVELS) {
      Object.defineProperty(LazyLogger.prototype, level, {
        value(this: LazyLogger, ...args: Line) {
          this.#line(level, args);
        },
      });
    }
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

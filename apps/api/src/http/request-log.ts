import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

/**
 * A request's logger (the app's, bound to the request id), made only when the request writes a line at a level the
 * app logs: most requests write none, and a pino child per request (its bindings serialized, redaction set up) cost
 * the agents' calls a few per cent of the API's CPU. A route with a log level or serializers of its own gets its child
 * at once.
 */
export const requestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, opts) => {
  if (opts.level || opts.serializers) return logger.child(bindings, opts);
  let child: FastifyBaseLogger | undefined;
  const made = () => (child ??= logger.child(bindings, opts));
  const lazy = { child: (more: typeof bindings, moreOpts?: typeof opts) => made().child(more, moreOpts), silent: () => undefined } as unknown as FastifyBaseLogger;
  for (const level of LEVELS) lazy[level] = (...args: Parameters<FastifyBaseLogger['info']>) => void ((logger as Logger).isLevelEnabled(level) && made()[level](...args));
  Object.defineProperty(lazy, 'level', { get: () => (child ?? logger).level, set: (level: string) => void (made().level = level) });
  return lazy;
};

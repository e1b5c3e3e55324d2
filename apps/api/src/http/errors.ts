import { Codes, messageOf, statusOf, type ErrorBody, type ErrorCode, type Language } from '@edgekeep/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { isDatabaseUnavailable } from '../db';

/** `num` fills the catalogue message's `{num}`. */
type ApiErrorOptions = { status?: number; extra?: unknown; message?: string; num?: number; errors?: ErrorItem[] };
/** One of a 101009's errors. */
export type ErrorItem = { code: ErrorCode; message: string; targets?: string[] };

/** An error of the spec's catalogue: `throw new ApiError(Codes.SiteCountExceeded, { extra })`. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly options: ApiErrorOptions = {},
  ) {
    super(options.message ?? messageOf(code, 'en_US', options.num) ?? `error ${code}`);
    this.status = options.status ?? statusOf(code);
  }
}

/** A missing object and another tenant's object answer the same. */
export const notFound = (what = 'object') => new ApiError(Codes.Parameter, { status: 404, extra: `${what} not found` });

/** The language of the answer's message, from Accept-Language; the console maps codes itself anyway. */
export function languageOf(req: FastifyRequest): Language {
  const header = String(req.headers['accept-language'] ?? '').toLowerCase();
  if (/zh[-_](tw|hk|hant)/.test(header)) return 'zh_TW';
  if (header.startsWith('zh')) return 'zh_CN';
  return 'en_US';
}

export const validationError = (err: ZodError, where: string) =>
  new ApiError(Codes.Parameter, {
    extra: { fields: err.issues.map((i) => ({ in: where, field: i.path.join('.'), message: i.message })) },
  });

function send(reply: FastifyReply, req: FastifyRequest, err: ApiError) {
  const lang = languageOf(req);
  const body: ErrorBody = {
    code: err.code,
    message: err.options.message ?? messageOf(err.code, lang, err.options.num) ?? err.message,
    extra: err.options.extra ?? null,
  };
  if (err.options.errors) body.errors = err.options.errors;
  return reply.code(err.status).send(body);
}

/** What a refusal of the framework's own says, without echoing the request or naming the framework. */
const FRAMEWORK_REASONS: Record<number, string> = {
  400: 'malformed request',
  404: 'not found',
  405: 'method not allowed',
  406: 'not acceptable',
  413: 'body too large',
  414: 'a path parameter is too long',
  415: 'unsupported media type',
};

const frameworkRefusal = (status: number) =>
  new ApiError(Codes.Parameter, { status, extra: { reason: FRAMEWORK_REASONS[status] ?? 'request refused' } });

/** Failures that Fastify meets before routing (a bad URL, a path parameter over its length). */
export function frameworkErrors(error: Error, req: FastifyRequest, reply: FastifyReply) {
  const status = (error as { code?: string }).code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
  return send(reply, req, frameworkRefusal(status));
}

/** One handler turns every failure into `{ code, message, extra }`; nothing internal reaches the client. */
export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error, req, reply) => {
    if (error instanceof ApiError) return send(reply, req, error);
    if (error instanceof ZodError) return send(reply, req, validationError(error, 'body'));
    const status = (error as { statusCode?: number }).statusCode;
    // Fastify's own refusals: unsupported media type, body too large, a bad header.
    if (status && status >= 400 && status < 500) return send(reply, req, frameworkRefusal(status));
    if (isDatabaseUnavailable(error)) {
      // the database is restarting or unreachable: the call may be repeated once it is back
      req.log.warn({ err: { message: (error as Error).message } }, 'database unavailable');
      void reply.header('retry-after', '5');
      return send(reply, req, new ApiError(Codes.Unknown, { status: 503, extra: { reason: 'temporarily unavailable' } }));
    }
    req.log.error({ err: error }, 'unexpected failure');
    return send(reply, req, new ApiError(Codes.Unknown));
  });
}

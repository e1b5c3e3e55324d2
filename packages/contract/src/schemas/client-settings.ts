import { z } from 'zod';
import { pageQuery } from '../paging';
import { errorPage, ERROR_PAGE_STATUSES } from '../edge/desired-state';
import { ids } from './accounts';
import { id } from './account';

/** Spec §3 system settings: the client's default error pages, served where a site has none of its own for the status. */
export const clientErrorPage = z.object({
  id: z.number(),
  status: z.number(),
  type: z.enum(['content', 'redirect', 'js']),
  body: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const clientErrorPagesQuery = pageQuery;
export const createClientErrorPage = errorPage;
export const updateClientErrorPage = z
  .object({
    id,
    status: z.union(ERROR_PAGE_STATUSES.map((s) => z.literal(s))).optional(),
    type: z.enum(['content', 'redirect', 'js']).optional(),
    body: z.string().min(1).max(65_536).optional(),
  });
export const removeClientErrorPages = z.object({ ids });

/** Spec §3 predefined trigger rates: the request rates the firewall forms offer as presets. */
export const triggerRate = z.object({
  name: z.string().trim().min(1).max(32),
  /** Requests from one address within `seconds` that trigger the rule. */
  requests: z.number().int().min(1).max(1_000_000),
  seconds: z.number().int().min(1).max(3600),
});
export const triggerRates = z
  .object({ rates: z.array(triggerRate).min(1).max(20) })
  .refine((v) => new Set(v.rates.map((r) => r.name)).size === v.rates.length, { message: 'Data already exists!', path: ['rates'] });
export type TriggerRates = z.infer<typeof triggerRates>;
/** The first rate is what a new anti-CC rule starts with. */
export const DEFAULT_TRIGGER_RATES: TriggerRates = {
  rates: [
    { name: 'Normal', requests: 60, seconds: 10 },
    { name: 'Loose', requests: 300, seconds: 60 },
    { name: 'Strict', requests: 10, seconds: 5 },
  ],
};

/** Where the client's own nginx directives go on every node of its zones. */
export const NGINX_CONTEXTS = ['http', 'stream', 'worker', 'custom'] as const;
export type NginxContext = (typeof NGINX_CONTEXTS)[number];
export const NGINX_DIRECTIVES_MAX = 8192;
/** nginx may not be told to read files, load code or modules, or leave its prefix from here. */
export const NGINX_FORBIDDEN = /^(include|load_module|pid|error_log|access_log|root|alias|lua_\w*|\w*_by_lua\w*|env|user|daemon|master_process|working_directory|ssl_certificate\w*|js_\w*|perl\w*)$/;

/**
 * Simple directives only (`name args;`, one or more a line, `#` comments): no blocks, quotes balanced, every
 * statement ended by `;`. Whether nginx takes the values is for `nginx -t` on each node to say.
 */
export function nginxDirectiveIssues(text: string): string[] {
  const issues: string[] = [];
  let statement: string[] = [];
  let word = '';
  let quote: string | null = null;
  const endWord = () => {
    if (word) statement.push(word);
    word = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') word += c + (text[++i] ?? '');
      else if (c === quote) {
        quote = null;
        word += c;
      } else word += c;
      continue;
    }
    if (c === '#' && !word) {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    // nginx reads a backslash as an escape outside quotes too: `a\"b` is one word, not the start of a quote.
    if (c === '\\') {
      word += c + (text[++i] ?? '');
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      word += c;
    } else if (c === '{' || c === '}') {
      issues.push('blocks ({ }) are not allowed: simple directives only');
      return issues;
    } else if (c === ';') {
      endWord();
      const [name] = statement;
      if (!name) issues.push('an empty statement');
      else if (!/^[a-z][a-z0-9_]*$/.test(name)) issues.push(`"${name}" is not a directive name`);
      else if (NGINX_FORBIDDEN.test(name)) issues.push(`"${name}" cannot be set here`);
      else if (statement.length < 2) issues.push(`"${name}" needs a value`);
      statement = [];
    } else if (/\s/.test(c)) endWord();
    else word += c;
  }
  if (quote) issues.push('a quote is not closed');
  endWord();
  if (statement.length) issues.push(`"${statement.join(' ')}" is not ended by ;`);
  return issues;
}

export const nginxDirectives = z.object({
  directives: z
    .string()
    .max(NGINX_DIRECTIVES_MAX)
    .superRefine((text, ctx) => {
      for (const message of nginxDirectiveIssues(text)) ctx.addIssue({ code: 'custom', message });
    }),
});
export const nginxContextParams = z.object({ context: z.enum(NGINX_CONTEXTS) });
/** A node of the client's zones that refused its configuration: it keeps serving the last one it took. */
export const nginxRefusal = z.object({ nodeID: z.number(), nodeName: z.string(), zoneID: z.number(), error: z.string() });
export const clientNginx = z.object({
  http: z.string(),
  stream: z.string(),
  worker: z.string(),
  custom: z.string(),
  /** The revision each zone is at and the nodes that have not taken it (nginx -t refused it). */
  refusals: z.array(nginxRefusal),
});

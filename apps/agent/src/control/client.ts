import type { LuaData, SniCertificate } from '../render';

/** Where the control endpoint listens (127.0.0.1) and the token it wants (PREFIX/control.token). */
export type Control = { port: number; token: string };

/** What the control endpoint reports about the nginx that serves. */
export type ControlStatus = {
  revision: number | null;
  release: string | null;
  loads: number | null;
  workerPid: number;
  /** The live domains the runtime holds, and the bytes of its data dictionary in use. */
  liveDomains: number;
  dataBytes: number;
};

const call = async <T>({ control, method, path, body }: { control: Control; method: string; path: string; body?: unknown }) => {
  const res = await fetch(`http://127.0.0.1:${control.port}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${control.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const json = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status} ${json.error ?? ''}`.trim());
  return json as T;
};

export const controlStatus = ({ control }: { control: Control }) => call<ControlStatus>({ control, method: 'GET', path: '/status' });

/** Replaces the Lua data (IP lists, …, certificates by SNI name when given) of the running nginx; effective at once, no reload. */
export const pushData = ({ control, data }: { control: Control; data: LuaData & { certificates?: SniCertificate[] } }) =>
  call<ControlStatus>({ control, method: 'PUT', path: '/data', body: data });

/**
 * Removes cached responses: the given URLs (`scheme://host/path?query` as clients ask for them, without a port;
 * both schemes go) and everything under URL prefixes, everything cached for some hosts (a site's domains, only
 * some file extensions of them when given), or everything.
 */
type PurgeTarget = { urls: string[]; prefixes?: string[] } | { hosts: string[]; extensions?: string[] } | { all: true };
export const purgeCache = ({ control, ...target }: { control: Control } & PurgeTarget) =>
  call<{ removed: number }>({ control, method: 'POST', path: '/purge', body: target });

/** Whether the node's disk is full: the runtime then caches nothing new (nginx would cut an answer it cannot cache). */
export const setDiskFull = ({ control, full }: { control: Control; full: boolean }) =>
  call<{ full: boolean }>({ control, method: 'PUT', path: '/disk', body: { full } });

export type BlockedIp = { siteId: number; ip: string; cause: string; expiresAt: number };

/** The addresses the Lua runtime blocks now (ek_blocked). */
export const blockedIps = async ({ control }: { control: Control }) =>
  (await call<{ blocked: BlockedIp[] }>({ control, method: 'GET', path: '/blocked' })).blocked;


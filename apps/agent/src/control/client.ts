import type { LuaData } from '../render';

/** What the control endpoint reports about the nginx that serves. */
export type ControlStatus = { revision: number | null; release: string | null; loads: number | null; workerPid: number };

const call = async <T>({ port, method, path, body }: { port: number; method: string; path: string; body?: unknown }) => {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: body === undefined ? undefined : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const json = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status} ${json.error ?? ''}`.trim());
  return json as T;
};

export const controlStatus = ({ port }: { port: number }) => call<ControlStatus>({ port, method: 'GET', path: '/status' });

/** Replaces the Lua data (IP lists, …) of the running nginx; effective at once, no reload. */
export const pushData = ({ port, data }: { port: number; data: LuaData }) =>
  call<ControlStatus>({ port, method: 'PUT', path: '/data', body: data });

/**
 * Removes cached responses: the given URLs (`scheme://host/path?query` as clients ask for them, without a port;
 * both schemes go), everything cached for some hosts (a site's domains), or everything.
 */
export const purgeCache = ({ port, ...target }: { port: number } & ({ urls: string[] } | { hosts: string[] } | { all: true })) =>
  call<{ removed: number }>({ port, method: 'POST', path: '/purge', body: target });

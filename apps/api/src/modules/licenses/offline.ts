import { Codes, licenseSchemas } from '@edgekeep/contract';
import { z } from 'zod';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import { ApiError, notFound } from '../../http/errors';
import { randomToken } from '../../lib/crypto';
import { readLicense } from './license-key';
import { activeLicense, clientLicenseView } from './limits';
import { activate, deactivateLicenses, findLicense, findRegistration, insertLicense, licenseOfNonce, licensesIn, releaseOnline, removeRegistration, renewActivation, replaceRegistration, unregisterLicenses, updateLicense } from './repo';
import { clientOf, installationIdOf, licenseItem, signFor } from './service';
import { licenseSigner } from './signing-key';

const REQUEST_PREFIX = 'EKREQ1.';
/** A registration request file: `EKREQ1.` and the base64url JSON of these fields. */
const requestFields = z.strictObject({
  clientID: z.number().int().positive(),
  installationID: z.string().regex(/^[0-9a-f]{16}$/),
  nonce: z.string().regex(/^[\w-]{16,64}$/),
  createdAt: z.iso.datetime(),
});
type RegistrationRequest = z.infer<typeof requestFields>;

const encodeRequest = (r: RegistrationRequest) => REQUEST_PREFIX + Buffer.from(JSON.stringify(r)).toString('base64url');

function decodeRequest(text: string): RegistrationRequest {
  const bad = new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'request', message: 'invalid registration request' }] } });
  if (!text.startsWith(REQUEST_PREFIX)) throw bad;
  const body = text.slice(REQUEST_PREFIX.length);
  if (!/^[\w-]+$/.test(body)) throw bad;
  try {
    return requestFields.parse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
  } catch {
    throw bad;
  }
}

/**
 * The client installation's registration request: its client id, this installation's id and a fresh nonce,
 * which the answering key must carry. A new request replaces the pending one.
 */
export async function registrationRequest(deps: AppDeps, clientId: number) {
  const row = await replaceRegistration(deps.db, clientId, randomToken(24));
  const request = { clientID: clientId, installationID: installationIdOf(deps), nonce: row.nonce, createdAt: row.created_at };
  return { ...request, request: encodeRequest(request) };
}

type Fields = z.infer<typeof licenseSchemas.licenseFields>;

/** Turns a registration request into an offline license for that client and installation; each request once. */
export async function issueOffline(deps: AppDeps, body: Fields & { request: string }) {
  const request = decodeRequest(body.request);
  await clientOf(deps, request.clientID);
  const used = await licenseOfNonce(deps.db, request.nonce);
  if (used) throw new ApiError(Codes.Duplicated, { extra: 'this registration request was already issued' });
  const issuedAt = now();
  const row = await insertLicense(deps.db, {
    kind: 'offline',
    name: body.name,
    days: body.days,
    site_limit: body.siteLimit,
    node_limit: body.nodeLimit,
    zone_limit: body.zoneLimit,
    domain_limit: body.domainLimit,
    auto_ssl_limit: body.autoSSLLimit,
    port_limit: body.portLimit,
    port_type: body.portType,
    node_monitor_seconds: body.nodeMonitorSeconds,
    start_at: body.startAt ?? null,
    client_id: request.clientID,
    installation_id: request.installationID,
    nonce: request.nonce,
    issued_at: issuedAt,
  });
  const signed = signFor(deps, row, { clientId: request.clientID, installationId: request.installationID, nonce: request.nonce, since: issuedAt });
  await updateLicense(deps.db, row.id, signed);
  return licenseItem(deps, 'offline', row.id);
}

const illegal = (extra: string) => new ApiError(Codes.IllegalLicense, { extra });

/** An offline key this client may hold on this installation, for a license whose registration still stands. */
async function offlineKeyFor(deps: AppDeps, clientId: number, text: string) {
  const doc = readLicense(licenseSigner(deps.config.dataDir), text);
  if (doc.kind !== 'offline') throw illegal('not an offline license');
  if (doc.clientId !== clientId) throw illegal('issued to another client');
  if (doc.installationId !== installationIdOf(deps)) throw illegal('issued for another installation');
  const row = await findLicense(deps.db, 'offline', doc.licenseId);
  if (!row || row.nonce !== doc.nonce) throw illegal('the license or its registration was removed');
  return doc;
}

/** Activates an offline key answering this client's pending registration request; it replaces any license held. */
export async function activateOffline(deps: AppDeps, clientId: number, text: string) {
  const doc = await offlineKeyFor(deps, clientId, text);
  const pending = await findRegistration(deps.db, clientId);
  if (pending?.nonce !== doc.nonce) throw illegal('does not answer the pending registration request');
  await deps.db.transaction().execute(async (trx) => {
    await activate(trx, { clientId, licenseId: doc.licenseId, key: text.trim() });
    await releaseOnline(trx, clientId);
    await removeRegistration(trx, clientId);
  });
  return clientLicenseView(deps, clientId);
}

/** Installs a renewed key of the active offline license: same license and registration, signed no earlier. */
export async function updateOfflineKey(deps: AppDeps, clientId: number, text: string) {
  const { doc: current } = await activeLicense(deps, clientId);
  if (current.kind !== 'offline') throw new ApiError(Codes.LicenseMissing, { extra: 'no offline license is active' });
  const doc = await offlineKeyFor(deps, clientId, text);
  if (doc.licenseId !== current.licenseId || doc.nonce !== current.nonce) throw illegal('a key of another license');
  if (doc.issuedAt < current.issuedAt) throw illegal('older than the active key');
  await renewActivation(deps.db, clientId, text.trim());
  return clientLicenseView(deps, clientId);
}

/**
 * Releases the registration of offline licenses: their keys stop working, a client holding one is left
 * without a license, and the client answers with a new registration request.
 */
export async function unregisterOffline(deps: AppDeps, ids: number[]) {
  const rows = await licensesIn(deps.db, 'offline', ids);
  if (rows.length !== new Set(ids).size) throw notFound('license');
  await deps.db.transaction().execute(async (trx) => {
    await deactivateLicenses(trx, ids);
    for (const row of rows) if (row.client_id && row.nonce) await removeRegistration(trx, row.client_id, row.nonce);
    await unregisterLicenses(trx, ids);
  });
}

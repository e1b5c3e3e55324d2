import { Codes, licenseSchemas, type PageQuery } from '@edgekeep/contract';
import type { z } from 'zod';
import { now } from '../../db';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import { ApiError, notFound } from '../../http/errors';
import { signLicense } from './license-key';
import { activate, clientLicensesIn, deactivateLicenses, findClient, findLicense, insertLicense, licensesIn, licensesOf, ordersOf, releaseOnline, deleteLicenses, replaceOrdersOf, setActivationKey, updateLicense, type License, type LicenseKind } from './repo';
import { licenseSigner } from './signing-key';

type Fields = z.infer<typeof licenseSchemas.licenseFields>;
type Row = License & { client_name: string | null };

const toItem = (r: Row) => ({
  id: r.id,
  kind: r.kind,
  name: r.name,
  days: r.days,
  siteLimit: r.site_limit,
  nodeLimit: r.node_limit,
  zoneLimit: r.zone_limit,
  domainLimit: r.domain_limit,
  autoSSLLimit: r.auto_ssl_limit,
  portLimit: r.port_limit,
  portType: r.port_type,
  nodeMonitorSeconds: r.node_monitor_seconds,
  startAt: r.start_at,
  expiredAt: r.expires_at,
  clientID: r.client_id,
  clientName: r.client_name,
  installationID: r.installation_id,
  key: r.license_key,
  issuedAt: r.issued_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const columnsOf = (f: Partial<Fields>) => ({
  ...(f.name === undefined ? {} : { name: f.name }),
  ...(f.days === undefined ? {} : { days: f.days }),
  ...(f.siteLimit === undefined ? {} : { site_limit: f.siteLimit }),
  ...(f.nodeLimit === undefined ? {} : { node_limit: f.nodeLimit }),
  ...(f.zoneLimit === undefined ? {} : { zone_limit: f.zoneLimit }),
  ...(f.domainLimit === undefined ? {} : { domain_limit: f.domainLimit }),
  ...(f.autoSSLLimit === undefined ? {} : { auto_ssl_limit: f.autoSSLLimit }),
  ...(f.portLimit === undefined ? {} : { port_limit: f.portLimit }),
  ...(f.portType === undefined ? {} : { port_type: f.portType }),
  ...(f.nodeMonitorSeconds === undefined ? {} : { node_monitor_seconds: f.nodeMonitorSeconds }),
  ...(f.startAt === undefined ? {} : { start_at: f.startAt }),
});

const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/**
 * Signs a license for its client, now: the key and the expiry it states. The license starts at its start date,
 * or `since`, when it was first issued to this client.
 */
export function signFor(deps: AppDeps, row: License, to: { clientId: number; installationId: string; nonce: string; since: string }) {
  const startAt = unix(row.start_at ?? to.since);
  const expiresAt = startAt + row.days * 86_400;
  const key = signLicense(licenseSigner(deps.config.dataDir), {
    licenseId: row.id,
    kind: row.kind,
    clientId: to.clientId,
    installationId: to.installationId,
    nonce: to.nonce,
    name: row.name,
    days: row.days,
    siteLimit: row.site_limit,
    nodeLimit: row.node_limit,
    zoneLimit: row.zone_limit,
    domainLimit: row.domain_limit,
    autoSSLLimit: row.auto_ssl_limit,
    portLimit: row.port_limit,
    portType: row.port_type,
    nodeMonitorSeconds: row.node_monitor_seconds,
    startAt,
    expiresAt,
    issuedAt: unix(now()),
  });
  return { license_key: key, expires_at: iso(expiresAt) };
}

/** This installation's id: the id of its license key pair. */
export const installationIdOf = (deps: AppDeps) => licenseSigner(deps.config.dataDir).keyId;

export async function licenseItem(deps: AppDeps, kind: LicenseKind, id: number) {
  const row = await findLicense(deps.db, kind, id);
  if (!row) throw notFound('license');
  return toItem(row);
}

const SORTABLE = {
  id: 'licenses.id',
  name: 'licenses.name',
  days: 'licenses.days',
  startAt: 'licenses.start_at',
  expiredAt: 'licenses.expires_at',
  issuedAt: 'licenses.issued_at',
  createdAt: 'licenses.created_at',
  updatedAt: 'licenses.updated_at',
};

export async function listLicenses(deps: AppDeps, kind: LicenseKind, query: PageQuery & { name?: string; clientID?: number }) {
  let q = licensesOf(deps.db, kind);
  const like = query.name ? `%${query.name.toLowerCase()}%` : undefined;
  if (like) q = q.where((eb) => eb(eb.fn('lower', ['licenses.name']), 'like', like));
  if (query.clientID) q = q.where('licenses.client_id', '=', query.clientID);
  const page = await paginate(q, { page: query, sortable: SORTABLE, defaultSort: { column: 'licenses.created_at', order: 'desc' }, idColumn: 'licenses.id' });
  return { data: page.data.map(toItem), total: page.total };
}

export async function createLicense(deps: AppDeps, fields: Fields) {
  const { id } = await insertLicense(deps.db, {
    kind: 'online',
    name: fields.name,
    days: fields.days,
    site_limit: fields.siteLimit,
    node_limit: fields.nodeLimit,
    zone_limit: fields.zoneLimit,
    domain_limit: fields.domainLimit,
    auto_ssl_limit: fields.autoSSLLimit,
    port_limit: fields.portLimit,
    port_type: fields.portType,
    node_monitor_seconds: fields.nodeMonitorSeconds,
    start_at: fields.startAt ?? null,
  });
  return licenseItem(deps, 'online', id);
}

/**
 * Edits a license. One that holds a key is signed again at once: an online client holds the new key
 * straight away; an offline client installs it with updateKey.
 */
export async function editLicense(deps: AppDeps, kind: LicenseKind, body: Partial<Fields> & { id: number }) {
  const row = await findLicense(deps.db, kind, body.id);
  if (!row) throw notFound('license');
  const edited = { ...row, ...columnsOf(body) };
  const signed = row.license_key && row.client_id && row.issued_at
    ? signFor(deps, edited, { clientId: row.client_id, installationId: row.installation_id ?? '', nonce: row.nonce ?? '', since: row.issued_at })
    : undefined;
  await deps.db.transaction().execute(async (trx) => {
    await updateLicense(trx, row.id, { ...columnsOf(body), ...signed });
    if (kind === 'online' && signed) await setActivationKey(trx, row.id, signed.license_key);
  });
  return licenseItem(deps, kind, row.id);
}

/** Removes licenses of one kind; all of them must exist, or nothing changes. A client holding one is left without. */
export async function removeLicenses(deps: AppDeps, kind: LicenseKind, ids: number[]) {
  const found = await licensesIn(deps.db, kind, ids);
  if (found.length !== new Set(ids).size) throw notFound('license');
  await deleteLicenses(deps.db, ids);
}

export async function clientOf(deps: AppDeps, clientId: number) {
  const client = await findClient(deps.db, clientId);
  if (!client) throw notFound('client');
  return client;
}

/** Issues an online license to a client; the client's previous license, online or offline, stops counting. */
export async function issueLicense(deps: AppDeps, body: { id: number; clientID: number }) {
  const row = await findLicense(deps.db, 'online', body.id);
  if (!row) throw notFound('license');
  const client = await clientOf(deps, body.clientID);
  const issuedAt = now();
  const installationId = installationIdOf(deps);
  const signed = signFor(deps, row, { clientId: client.id, installationId, nonce: '', since: issuedAt });
  await deps.db.transaction().execute(async (trx) => {
    await releaseOnline(trx, client.id, row.id);
    await deactivateLicenses(trx, [row.id]);
    await updateLicense(trx, row.id, { client_id: client.id, installation_id: installationId, issued_at: issuedAt, ...signed });
    await activate(trx, { clientId: client.id, licenseId: row.id, key: signed.license_key });
  });
  return licenseItem(deps, 'online', row.id);
}

const toOrder = (r: Awaited<ReturnType<typeof ordersOf>>[number]) => ({
  id: r.id,
  orderNo: r.order_no,
  licenseID: r.license_id,
  description: r.description,
  amount: r.amount,
  orderedAt: r.ordered_at,
  memo: r.memo,
  createdAt: r.created_at,
});

export async function listOrders(deps: AppDeps, clientId: number) {
  await clientOf(deps, clientId);
  return (await ordersOf(deps.db, clientId)).map(toOrder);
}

type OrderInput = z.infer<typeof licenseSchemas.orderInput>;

/** Replaces a client's order records; an order may name only a license of that client. */
export async function replaceOrders(deps: AppDeps, clientId: number, orders: OrderInput[]) {
  await clientOf(deps, clientId);
  const named = [...new Set(orders.flatMap((o) => (o.licenseID ? [o.licenseID] : [])))];
  const owned = named.length ? await clientLicensesIn(deps.db, clientId, named) : [];
  if (owned.length !== named.length) {
    throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'orders.licenseID', message: 'not a license of this client' }] } });
  }
  const rows = orders.map((o) => ({ license_id: o.licenseID ?? null, order_no: o.orderNo, description: o.description, amount: o.amount, ordered_at: o.orderedAt, memo: o.memo }));
  await deps.db.transaction().execute((trx) => replaceOrdersOf(trx, clientId, rows));
  return listOrders(deps, clientId);
}

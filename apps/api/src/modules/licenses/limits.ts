import { Codes, licenseSchemas, type ErrorCode } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { readLicense, type LicenseDocument } from './license-key';
import { findActivation } from './repo';
import { licenseSigner } from './signing-key';

type UsageKind = licenseSchemas.UsageKind;

/** How many of one kind a client has now; the module owning the resource registers it. */
export type UsageCounter = (deps: AppDeps, clientId: number) => Promise<number>;

const counters = new Map<UsageKind, UsageCounter>();

/** Registers the counter of a kind (replacing an earlier one); answers a function that removes it again. */
export function registerUsageCounter(kind: UsageKind, count: UsageCounter) {
  counters.set(kind, count);
  return () => {
    if (counters.get(kind) === count) counters.delete(kind);
  };
}

/** A kind whose resource module has not registered a counter yet counts 0. */
const usageOf = async (deps: AppDeps, clientId: number, kind: UsageKind) => (await counters.get(kind)?.(deps, clientId)) ?? 0;

type LimitField = 'siteLimit' | 'nodeLimit' | 'zoneLimit' | 'domainLimit' | 'autoSSLLimit' | 'portLimit';
const LIMIT_OF: Record<UsageKind, LimitField> = {
  site: 'siteLimit',
  node: 'nodeLimit',
  zone: 'zoneLimit',
  domain: 'domainLimit',
  autoSSL: 'autoSSLLimit',
  port: 'portLimit',
};
const EXCEEDED: Record<UsageKind, ErrorCode> = {
  site: Codes.SiteCountExceeded,
  node: Codes.NodeCountExceeded,
  zone: Codes.ZoneCountExceeded,
  domain: Codes.DomainCountExceeded,
  autoSSL: Codes.AutoSslCountExceeded,
  port: Codes.PortCountExceeded,
};

const limitOf = (doc: LicenseDocument, kind: UsageKind) => doc[LIMIT_OF[kind]];

/**
 * The license a client holds, read from its signed key: 101022 when it holds none, 900001 when the key was
 * changed or was made for another installation, 101024 when another license server signed it.
 */
export async function activeLicense(deps: AppDeps, clientId: number) {
  const activation = await findActivation(deps.db, clientId);
  if (!activation) throw new ApiError(Codes.LicenseMissing);
  const signer = licenseSigner(deps.config.dataDir);
  const doc = readLicense(signer, activation.license_key);
  if (doc.clientId !== clientId || doc.installationId !== signer.keyId || doc.licenseId !== activation.license_id) {
    throw new ApiError(Codes.IllegalLicense);
  }
  return { doc, key: activation.license_key };
}

type CreateCheck = {
  /** The root client account the new resources belong to. */
  clientId: number;
  kind: UsageKind;
  /** How many are being created at once (a batch); 1 unless told. */
  adding?: number;
  /** The layer of a node or port being created; layer-4 ports are always layer 4. */
  layer?: 4 | 7;
};

/**
 * May this client create `adding` more of `kind`? Throws when not: 101022 without a license, 101019 once it
 * expired (what exists keeps being served; only creation stops), 101023 for layer 4 under a layer-7 license,
 * and the kind's "count exceeds limit" code when the count would pass a non-zero limit.
 */
export async function assertCanCreate(deps: AppDeps, check: CreateCheck) {
  const { doc } = await activeLicense(deps, check.clientId);
  const at = Date.now() / 1000;
  if (doc.startAt > at) throw new ApiError(Codes.LicenseMissing, { extra: 'the license has not started yet' });
  if (doc.expiresAt <= at) throw new ApiError(Codes.LicenseExpired);
  const layer = check.kind === 'port' ? 4 : check.layer;
  if (layer === 4 && doc.portType !== '7+4') {
    throw new ApiError(Codes.IllegalPortType, { extra: 'layer 4 needs a license of port type 7+4' });
  }
  const limit = limitOf(doc, check.kind);
  if (limit === 0) return;
  const adding = check.adding ?? 1;
  const current = await usageOf(deps, check.clientId, check.kind);
  if (current + adding > limit) throw new ApiError(EXCEEDED[check.kind], { extra: { kind: check.kind, limit, current, adding } });
}

const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString();

/** The client's license as its system screen shows it (GET client/license). */
export async function clientLicenseView(deps: AppDeps, clientId: number) {
  const { doc, key } = await activeLicense(deps, clientId);
  const usage = {} as Record<UsageKind, { used: number; limit: number }>;
  for (const kind of licenseSchemas.USAGE_KINDS) usage[kind] = { used: await usageOf(deps, clientId, kind), limit: limitOf(doc, kind) };
  const left = doc.expiresAt - Date.now() / 1000;
  return {
    id: doc.licenseId,
    kind: doc.kind,
    name: doc.name,
    days: doc.days,
    portType: doc.portType,
    nodeMonitorSeconds: doc.nodeMonitorSeconds,
    startAt: isoOf(doc.startAt),
    expiredAt: isoOf(doc.expiresAt),
    issuedAt: isoOf(doc.issuedAt),
    expired: left <= 0,
    daysLeft: Math.max(0, Math.ceil(left / 86_400)),
    usage,
    installationID: doc.installationId,
    key,
  };
}

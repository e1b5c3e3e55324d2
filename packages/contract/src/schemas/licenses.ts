import { z } from 'zod';
import { displayName } from './name';
import { TEXT_FIELD_MAX } from '../constants';
import { pageQuery } from '../paging';
import { id, idParam } from './account';
import { ids, timeInput } from './accounts';

/** Spec §3 License port type: layer 7 only, or layer 7 and layer 4. */
export const LICENSE_PORT_TYPES = ['7', '7+4'] as const;
export const LICENSE_KINDS = ['online', 'offline'] as const;
/** What the limits service counts; each kind has its own limit field and its own "count exceeds limit" code. */
export const USAGE_KINDS = ['site', 'node', 'zone', 'domain', 'autoSSL', 'port'] as const;
export type UsageKind = (typeof USAGE_KINDS)[number];
/** The spec §8 message the console shows for 101003 with this extra. */
export const INVALID_LICENSE_KEY = 'invalid license key';
export const LICENSE_DAYS_MAX = 36_500;
export const LICENSE_LIMIT_MAX = 1_000_000;
/** The admin dashboard counts licenses that expire within this many days as expiring soon. */
export const EXPIRING_SOON_DAYS = 30;

/** A count limit of a license; 0 means unlimited (spec §9). */
const limit = z.number().int().min(0).max(LICENSE_LIMIT_MAX);

const licenseFieldShape = {
  name: displayName(64),
  days: z.number().int().min(1).max(LICENSE_DAYS_MAX),
  siteLimit: limit,
  nodeLimit: limit,
  zoneLimit: limit,
  domainLimit: limit,
  autoSSLLimit: limit,
  portLimit: limit,
  portType: z.enum(LICENSE_PORT_TYPES),
  /** The shortest interval, in seconds, at which the client's monitors may probe its nodes. */
  nodeMonitorSeconds: z.number().int().min(1).max(86_400),
  /** Without a start date the license starts when it is issued. */
  startAt: timeInput.nullable().optional(),
};
export const licenseFields = z.object(licenseFieldShape);
export const createLicenseBody = licenseFields;
export const updateLicenseBody = z.object({ id, ...licenseFields.partial().shape });
export const removeLicensesBody = z.object({ ids });
export const issueLicenseBody = z.object({ id, clientID: id });

export const licensesQuery = pageQuery.extend({
  name: z.string().max(TEXT_FIELD_MAX).optional(),
  clientID: idParam.optional(),
});

/** A license as the admin sees it; `key` is the signed license key, null until it is issued. */
export const licenseItem = z.object({
  id: z.number(),
  kind: z.enum(LICENSE_KINDS),
  name: z.string(),
  days: z.number(),
  siteLimit: z.number(),
  nodeLimit: z.number(),
  zoneLimit: z.number(),
  domainLimit: z.number(),
  autoSSLLimit: z.number(),
  portLimit: z.number(),
  portType: z.enum(LICENSE_PORT_TYPES),
  nodeMonitorSeconds: z.number(),
  startAt: z.string().nullable(),
  expiredAt: z.string().nullable(),
  clientID: z.number().nullable(),
  clientName: z.string().nullable(),
  /** Offline licenses: the installation the registration request came from; null once unregistered. */
  installationID: z.string().nullable(),
  key: z.string().nullable(),
  issuedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const orderParams = z.object({ userId: idParam });
export const orderInput = z.object({
  orderNo: z.string().trim().min(1).max(64),
  /** The license this order paid for, one of the client's. */
  licenseID: id.nullable().optional(),
  description: z.string().max(TEXT_FIELD_MAX).default(''),
  amount: z.number().min(0).max(1e12),
  orderedAt: timeInput,
  memo: z.string().max(TEXT_FIELD_MAX).default(''),
});
/** PUT replaces the client's order records with these. */
export const ordersBody = z.object({ orders: z.array(orderInput).max(500) });
export const orderItem = z.object({
  id: z.number(),
  orderNo: z.string(),
  licenseID: z.number().nullable(),
  description: z.string(),
  amount: z.number(),
  orderedAt: z.string(),
  memo: z.string(),
  createdAt: z.string(),
});

/** Key text: what a key file holds (surrounding whitespace ignored); its format is checked by the server. */
export const licenseKeyText = z.string().trim().min(1).max(8192);
export const offlineIssueBody = z.object({
  /** The text of the client's registration request file. */
  request: z.string().trim().min(1).max(8192),
  ...licenseFieldShape,
});
export const activateBody = z.object({ key: licenseKeyText });
export const updateKeyQuery = z.object({ key: licenseKeyText });

/** What a client's installation produces for an offline license; the admin turns it into a key. */
export const registrationRequest = z.object({
  /** The text of the registration request file (`EKREQ1.` followed by the encoded request). */
  request: z.string(),
  clientID: z.number(),
  installationID: z.string(),
  nonce: z.string(),
  createdAt: z.string(),
});

const usageEntry = z.object({ used: z.number(), limit: z.number() });
/** The client's own license as its system screen shows it: the signed terms, usage against each limit, expiry. */
export const clientLicense = z.object({
  id: z.number(),
  kind: z.enum(LICENSE_KINDS),
  name: z.string(),
  days: z.number(),
  portType: z.enum(LICENSE_PORT_TYPES),
  nodeMonitorSeconds: z.number(),
  startAt: z.string(),
  expiredAt: z.string(),
  issuedAt: z.string(),
  expired: z.boolean(),
  /** Whole days until expiry, 0 once expired. */
  daysLeft: z.number(),
  usage: z.object(Object.fromEntries(USAGE_KINDS.map((k) => [k, usageEntry])) as Record<UsageKind, typeof usageEntry>),
  installationID: z.string(),
  key: z.string(),
});

/** The admin dashboard's counts (GET license/overview). */
export const licenseOverview = z.object({ clients: z.number(), licenses: z.number(), issued: z.number(), expiringSoon: z.number() });

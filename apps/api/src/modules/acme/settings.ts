import { autoCertificateSchemas as s } from '@edgekeep/contract';
import { z } from 'zod';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { notFound } from '../../http/errors';
import { decrypt, encrypt } from '../../lib/crypto';
import { findAccount } from '../accounts/repo';
import type { AcmeEndpoint } from './issue';
import * as repo from './repo';

const eabSchema = z.object({ kid: z.string(), hmacKey: z.string() });
type Eab = z.infer<typeof eabSchema>;

/** The client whose settings a client-tier caller edits: a sub-account edits its client's. */
export async function settingsOwner(deps: AppDeps, principal: Principal) {
  const actor = await findAccount(deps.db, principal.accountId);
  if (!actor) throw notFound('account');
  return actor.is_root || actor.client_id === null ? actor.id : actor.client_id;
}

const DEFAULT = { provider: 'letsEncrypt' as const, directory_url: s.PROVIDER_DIRECTORIES.letsEncrypt };

const openEab = (deps: AppDeps, sealed: string | null): Eab | null => (sealed ? eabSchema.parse(JSON.parse(decrypt(deps.secrets.dataKey, sealed))) : null);
const sealEab = (deps: AppDeps, eab: Eab) => encrypt(deps.secrets.dataKey, JSON.stringify(eab));

async function rowOf(deps: AppDeps, clientId: number): Promise<repo.AccountRow> {
  return (
    (await repo.accountOf(deps.db, clientId)) ?? {
      client_id: clientId,
      ...DEFAULT,
      ca_bundle: null,
      email: null,
      zerossl_eab: null,
      google_eab: null,
      account_key_sealed: null,
      account_url: null,
      account_directory: null,
      updated_at: now(),
    }
  );
}

function providerAnswer(deps: AppDeps, row: repo.AccountRow): z.infer<typeof s.providerSetting> {
  const eab = openEab(deps, row.zerossl_eab);
  return {
    provider: s.provider.parse(row.provider),
    directoryUrl: row.directory_url,
    caBundle: row.ca_bundle,
    email: row.email,
    eabKid: eab?.kid ?? null,
    eabSet: eab !== null,
    accountRegistered: row.account_url !== null && row.account_directory === row.directory_url,
  };
}

export async function getProvider(deps: AppDeps, principal: Principal) {
  return providerAnswer(deps, await rowOf(deps, await settingsOwner(deps, principal)));
}

export async function setProvider(deps: AppDeps, principal: Principal, body: z.infer<typeof s.providerSettingBody>) {
  const row = await rowOf(deps, await settingsOwner(deps, principal));
  const directory = body.provider === 'custom' ? body.directoryUrl! : s.PROVIDER_DIRECTORIES[body.provider];
  const next: repo.AccountRow = {
    ...row,
    provider: body.provider,
    directory_url: directory,
    ca_bundle: body.caBundle === undefined ? row.ca_bundle : body.caBundle,
    email: body.email === undefined ? row.email : body.email,
    zerossl_eab: body.eabKid && body.eabHmacKey ? sealEab(deps, { kid: body.eabKid, hmacKey: body.eabHmacKey }) : row.zerossl_eab,
    updated_at: now(),
  };
  await repo.saveAccount(deps.db, next);
  return providerAnswer(deps, next);
}

export async function getGoogleTrust(deps: AppDeps, principal: Principal) {
  const eab = openEab(deps, (await rowOf(deps, await settingsOwner(deps, principal))).google_eab);
  return { eabKid: eab?.kid ?? null, eabSet: eab !== null };
}

export async function setGoogleTrust(deps: AppDeps, principal: Principal, body: z.infer<typeof s.googleTrustBody>) {
  const row = await rowOf(deps, await settingsOwner(deps, principal));
  const google_eab = body.eabKid === null ? null : sealEab(deps, { kid: body.eabKid, hmacKey: body.eabHmacKey! });
  await repo.saveAccount(deps.db, { ...row, google_eab, updated_at: now() });
  return { eabKid: body.eabKid, eabSet: google_eab !== null };
}

/** What an order of the client needs: the directory, its CA bundle and EAB, and the account (key decrypted). */
export async function endpointOf(deps: AppDeps, clientId: number) {
  const row = await rowOf(deps, clientId);
  const eab = row.provider === 'googleTrust' ? openEab(deps, row.google_eab) : openEab(deps, row.zerossl_eab);
  const endpoint: AcmeEndpoint = { directoryUrl: row.directory_url, caBundle: row.ca_bundle, eab, email: row.email };
  const sameDirectory = row.account_directory === row.directory_url;
  return {
    endpoint,
    accountKey: row.account_key_sealed && sameDirectory ? decrypt(deps.secrets.dataKey, row.account_key_sealed) : null,
    accountUrl: sameDirectory ? row.account_url : null,
    stored: row,
  };
}

/** Keeps a new account's key sealed, bound to the directory it was registered with. */
export async function rememberAccount(deps: AppDeps, o: { clientId: number; stored: repo.AccountRow; key: string; url: string; directory: string }) {
  if (!(await repo.accountOf(deps.db, o.clientId))) await repo.saveAccount(deps.db, o.stored);
  await repo.storeAccountKey(deps.db, { clientId: o.clientId, sealed: encrypt(deps.secrets.dataKey, o.key), url: o.url, directory: o.directory });
}

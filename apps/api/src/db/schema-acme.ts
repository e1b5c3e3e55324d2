import type { Generated } from 'kysely';

export type AutoCertificateStatus = 'pending' | 'processing' | 'completed' | 'failed';

export type AutoCertificateTable = {
  id: Generated<number>;
  domain_id: number;
  site_id: number;
  client_id: number;
  name: string;
  registered_domain: string;
  status: AutoCertificateStatus;
  challenge: Generated<'http-01' | 'dns-01'>;
  certificate_id: number | null;
  not_after: string | null;
  renew_at: string | null;
  next_attempt_at: string;
  attempts: Generated<number>;
  last_error: string | null;
  /** The failure hint key (contract autoCertificateHints). */
  hint: string | null;
  claimed_by: string | null;
  claim_until: string | null;
  created_at: string;
  updated_at: string;
};

export type AcmeChallengeTable = {
  id: Generated<number>;
  zone_id: number;
  auto_certificate_id: number;
  name: string;
  token: string;
  key_authorization: string;
  created_at: string;
};

export type AcmeIssuanceTable = {
  id: Generated<number>;
  client_id: number;
  registered_domain: string;
  name: string;
  issued_at: string;
};

export type AcmeAccountTable = {
  client_id: number;
  provider: string;
  directory_url: string;
  ca_bundle: string | null;
  email: string | null;
  /** Sealed JSON { kid, hmacKey } of the ZeroSSL / Google Trust Services external account binding. */
  zerossl_eab: string | null;
  google_eab: string | null;
  account_key_sealed: string | null;
  account_url: string | null;
  /** The directory the account key was registered with; another directory starts a new account. */
  account_directory: string | null;
  updated_at: string;
};

export type AcmeTables = {
  auto_certificates: AutoCertificateTable;
  acme_challenges: AcmeChallengeTable;
  acme_issuances: AcmeIssuanceTable;
  acme_accounts: AcmeAccountTable;
};

import https from 'node:https';
import type { Client } from 'acme-client';
import type { TxtPublisher } from '../dns/provider';

/** A CA that does not answer fails the order (which is retried with backoff) instead of holding its job. */
const CA_TIMEOUT_MS = 30_000;

/** Trusted CA bundles per directory origin (a custom CA, pebble's in tests); the ACME HTTP client asks through them. */
const agents = new Map<string, https.Agent>();

let loading: Promise<typeof import('acme-client')> | undefined;
/** The ACME library, loaded with the first certificate work rather than with the API; its HTTP client set up once. */
export const acmeLibrary = () =>
  (loading ??= import('acme-client').then((acme) => {
    acme.axios.defaults.timeout = CA_TIMEOUT_MS;
    acme.axios.interceptors.request.use((config) => {
      const agent = config.url ? agents.get(new URL(config.url).origin) : undefined;
      if (agent) config.httpsAgent = agent;
      return config;
    });
    return acme;
  }));

export type AcmeEndpoint = { directoryUrl: string; caBundle: string | null; eab: { kid: string; hmacKey: string } | null; email: string | null };

/** An ACME client for a directory with an account key; registers the account (agreeing to the terms) when it has no URL yet. */
export async function acmeClient(o: { endpoint: AcmeEndpoint; accountKey: string; accountUrl: string | null }) {
  const origin = new URL(o.endpoint.directoryUrl).origin;
  if (o.endpoint.caBundle) agents.set(origin, new https.Agent({ ca: o.endpoint.caBundle, keepAlive: true }));
  else agents.delete(origin);
  const acme = await acmeLibrary();
  const client = new acme.Client({
    directoryUrl: o.endpoint.directoryUrl,
    accountKey: o.accountKey,
    ...(o.accountUrl ? { accountUrl: o.accountUrl } : {}),
    ...(o.endpoint.eab ? { externalAccountBinding: o.endpoint.eab } : {}),
    backoffAttempts: 12,
    backoffMin: 200,
    backoffMax: 5000,
  });
  if (!o.accountUrl) await client.createAccount({ termsOfServiceAgreed: true, ...(o.endpoint.email ? { contact: [`mailto:${o.endpoint.email}`] } : {}) });
  return { client, accountUrl: client.getAccountUrl() };
}

export const newAccountKey = async () => (await (await acmeLibrary()).crypto.createPrivateEcdsaKey('P-256')).toString();

/** Publishes an HTTP-01 answer where the CA will look (every node of the domain's zone) and resolves once it is served. */
export type HttpPublisher = {
  publish(o: { name: string; token: string; keyAuthorization: string }): Promise<void>;
  clear(): Promise<void>;
};

export type IssueInput = {
  client: Client;
  name: string;
  challenge: 'http-01' | 'dns-01';
  http: HttpPublisher;
  dns: TxtPublisher | null;
};

/** The TXT name of a DNS-01 answer: a wildcard's is its base name's. */
export const dnsChallengeName = (identifier: string) => `_acme-challenge.${identifier.replace(/^\*\./, '')}`;

/**
 * One order for one name, with the challenge given: the answer is published (HTTP-01 on the edges, DNS-01 through
 * the DNS provider), the CA is told to validate, the order is finalized with a fresh ECDSA key. Answers the PEM
 * chain and key. Published answers are removed whatever happens.
 */
export async function issueCertificate(input: IssueInput) {
  const { client, name } = input;
  const order = await client.createOrder({ identifiers: [{ type: 'dns', value: name }] });
  const txtNames: string[] = [];
  try {
    for (const authz of await client.getAuthorizations(order)) {
      if (authz.status === 'valid') continue;
      const challenge = authz.challenges.find((c) => c.type === input.challenge);
      if (!challenge) throw new Error(`the CA offers no ${input.challenge} challenge for ${authz.identifier.value}`);
      const keyAuthorization = await client.getChallengeKeyAuthorization(challenge);
      if (input.challenge === 'dns-01') {
        if (!input.dns) throw new Error('no DNS provider is configured');
        const txt = dnsChallengeName(authz.identifier.value);
        txtNames.push(txt);
        await input.dns.setTxt(txt, [keyAuthorization]);
      } else {
        await input.http.publish({ name: authz.identifier.value, token: (challenge as { token: string }).token, keyAuthorization });
      }
      await client.completeChallenge(challenge);
      await client.waitForValidStatus(challenge);
    }
  } finally {
    await input.http.clear().catch(() => undefined);
    for (const txt of txtNames) await input.dns?.clearTxt(txt).catch(() => undefined);
  }
  const { crypto } = await acmeLibrary();
  const [key, csr] = await crypto.createCsr({ commonName: name, altNames: [name] }, await crypto.createPrivateEcdsaKey('P-256'));
  const finalized = await client.finalizeOrder(order, csr);
  const chain = await client.getCertificate(finalized);
  return { chain, key: key.toString() };
}

import { api, createAccountCli, type Server, type startSmtpSink } from './harness';

type Smtp = Awaited<ReturnType<typeof startSmtpSink>>;
export type Tier = 'admin' | 'client' | 'user';

/** Polls `probe` until it answers something, or fails after `timeoutMs` naming what it waited for. */
export const until = async <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

/** Signs in over the API as a person would: the code comes by mail, or with the answer for an account without a second factor. */
export async function signInByMail({ server, smtp, tier, email, password }: { server: Server; smtp: Smtp; tier: Tier; email: string; password: string }) {
  const before = smtp.mails.length;
  const step1 = await api(server, 'POST', `${tier}/login`, { body: { account: email, password } });
  const code = step1.body.data.login2FAType === 2 ? step1.body.data.code : await smtp.waitFor(email, /code is (\d{6})/, before);
  const step2 = await api(server, 'POST', `${tier}/code`, { body: { account: email, onePassKey: step1.body.data.onePassKey, code } });
  return step2.body.data.accessToken as string;
}

/**
 * A client made from the shell with a license (layer 7 + 4, nothing limited) that the root admin issues to it, and
 * the client's tokens. The server must have been started with ADMIN_EMAIL root@example.com and the same password.
 */
export async function licensedClient({ server, smtp, password, email = 'ops@example.com' }: { server: Server; smtp: Smtp; password: string; email?: string }) {
  const made = await createAccountCli(server, ['--auth', 'client', '--email', email, '--password', password]);
  const clientId = Number(/#(\d+)/.exec(made)![1]);
  const admin = await signInByMail({ server, smtp, tier: 'admin', email: 'root@example.com', password });
  const terms = { name: 'e2e', days: 30, siteLimit: 0, nodeLimit: 0, zoneLimit: 0, domainLimit: 0, autoSSLLimit: 0, portLimit: 0, portType: '7+4', nodeMonitorSeconds: 30 };
  const license = (await api(server, 'POST', 'license', { token: admin, body: terms })).body.data.id;
  const issued = await api(server, 'POST', 'license/issuing', { token: admin, body: { id: license, clientID: clientId } });
  if (issued.status !== 200) throw new Error(`license not issued: ${JSON.stringify(issued.body)}`);
  return { admin, clientId, client: await signInByMail({ server, smtp, tier: 'client', email, password }) };
}

/**
 * A user of the licensed client (no second factor) with somewhere to run sites: a zone (its web ports when given),
 * one node at 127.0.0.1 in a line group, and a product on them. `newSite(name)` gives the user a site of that product.
 */
export async function userWithPlan({ server, smtp, password, user, ports }: { server: Server; smtp: Smtp; password: string; user: string; ports?: { httpPorts: number[]; httpsPorts: number[] } }) {
  const { client } = await licensedClient({ server, smtp, password });
  await createAccountCli(server, ['--auth', 'user', '--email', user, '--password', password, '--client', 'ops@example.com', '--no-second-factor']);
  const as = { token: client };
  const zone = (await api(server, 'POST', 'client/zone', { ...as, body: { name: 'e2e' } })).body.data.id as number;
  if (ports) await api(server, 'PUT', `client/zone/${zone}/ports`, { ...as, body: ports });
  const node = (await api(server, 'POST', 'client/node', { ...as, body: { zoneID: zone, name: 'edge-1', ip: '127.0.0.1' } })).body.data.id as number;
  const group = (await api(server, 'POST', `client/zone/${zone}/group`, { ...as, body: { name: 'line', nodeIDs: [node] } })).body.data.id as number;
  const product = (await api(server, 'POST', 'client/product', { ...as, body: { name: 'Starter plan', zoneID: zone, groupID: group } })).body.data.id as number;
  const userId = (await api(server, 'GET', 'client/accounts?auth=user', as)).body.data[0].id as number;
  const newSite = async (name: string) => {
    const site = await api(server, 'POST', 'client/site', { ...as, body: { name, productID: product, userID: userId } });
    if (site.status !== 200) throw new Error(`site ${name} not made: ${JSON.stringify(site.body)}`);
    return site.body.data.id as number;
  };
  return { client, zone, node, newSite, userToken: await signInByMail({ server, smtp, tier: 'user', email: user, password }) };
}

/** Adds domains with one origin to a user's site over the API; answers the ids of the site's domains by name. */
export async function addDomains({ server, token, siteId, names, origin }: { server: Server; token: string; siteId: number; names: string[]; origin: { host: string; port?: number } }) {
  const added = await api(server, 'POST', `user/site/${siteId}/domains`, { token, body: { domains: names.join('\n'), upstreams: [origin] } });
  if (added.status !== 200) throw new Error(`domains ${names.join(', ')} not added: ${JSON.stringify(added.body)}`);
  const listed = (await api(server, 'GET', `user/site/${siteId}/domains?pageSize=100`, { token })).body.data as { id: number; name: string }[];
  return Object.fromEntries(listed.map((d) => [d.name, d.id]));
}

import type { AppDeps } from '../../deps';
import { isFresh } from '../resolutions/health';
import { notify } from './events';
import { endingCertificates, setWatchedStates, watchedNodes, watchedStates } from './repo';

/** A certificate is reported once when it comes this close to its end, and once more when it has ended. */
export const EXPIRY_NOTICE_DAYS = 14;

/**
 * Nodes going offline (no report for a while) and coming back, for their client. The first look only records, the
 * nodes seen the first time together (a zone's thousand nodes coming online had cost a thousand statements).
 */
async function sweepNodes(deps: AppDeps, at: number) {
  const seen = await watchedStates(deps.db, 'node:');
  const moved = (await watchedNodes(deps.db)).flatMap((node) => {
    const subject = `node:${node.id}`;
    const state = isFresh(node, at) ? 'online' : 'offline';
    const before = seen.get(subject);
    return before === state ? [] : [{ node, subject, state, before }];
  });
  await setWatchedStates(deps.db, moved.filter((m) => m.before === undefined));
  for (const { node, subject, state, before } of moved) {
    if (before === undefined) continue;
    await setWatchedStates(deps.db, [{ subject, state }]);
    await notify(deps, { kind: state === 'offline' ? 'node.offline' : 'node.online', accountId: node.client_id, subject: node.name, details: { ip: node.ip } });
  }
}

/** Certificates ending within EXPIRY_NOTICE_DAYS (or ended), for the user of their site. */
async function sweepCertificates(deps: AppDeps, at: number) {
  const seen = await watchedStates(deps.db, 'certificate:');
  const horizon = new Date(at + EXPIRY_NOTICE_DAYS * 86_400_000).toISOString();
  for (const cert of await endingCertificates(deps.db, horizon)) {
    const subject = `certificate:${cert.id}:${cert.not_after}`;
    const state = Date.parse(cert.not_after) <= at ? 'expired' : 'expiring';
    if (seen.get(subject) === state) continue;
    await setWatchedStates(deps.db, [{ subject, state }]);
    await notify(deps, { kind: 'certificate.expiring', accountId: cert.user_id, subject: cert.name, details: { site: cert.site_name, notAfter: cert.not_after, state } });
  }
}

export async function sweepWatched(deps: AppDeps, at = Date.now()) {
  await sweepNodes(deps, at);
  await sweepCertificates(deps, at);
}

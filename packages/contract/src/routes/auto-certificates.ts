import { z } from 'zod';
import * as d from '../schemas/domains';
import * as s from '../schemas/auto-certificates';
import { envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tag = 'Auto certificates';

/** Automatic certificates (ACME): the client's queue, reapply, the user's per-site state and the provider settings. */
export const autoCertificateRoutes = {
  list: defineRoute({ id: 'client.autoCertificates', method: 'GET', path: 'client/autoCertificates', tier: 'client', permission: 'autoSSL.view', tag,
    summary: "Automatic certificates of the client's domains: state, expiry, next renewal, the CA's last error and the 7-day budget",
    query: s.autoCertificatesQuery, response: paged(s.autoCertificate) }),
  renew: defineRoute({ id: 'client.autoCertificates.renew', method: 'POST', path: 'client/autoCertificates/renew', tier: 'client', permission: 'autoSSL.edit', tag,
    summary: 'Reapply (one or a batch): queue a new order now; the last good certificate keeps serving until it succeeds',
    body: s.renewBody, response: envelope(z.object({ queued: z.number().int() })) }),
  site: defineRoute({ id: 'user.site.autoCertificates', method: 'GET', path: 'user/site/{siteId}/autoCertificates', tier: 'user', permission: 'domains.view', tag,
    summary: "The auto-SSL state of the site's domains with auto SSL on", params: d.siteParams, response: envelope(z.array(s.siteAutoCertificate)) }),
  provider: defineRoute({ id: 'client.setting.system.zeroSSL', method: 'GET', path: 'client/setting/system/zeroSSL', tier: 'client', permission: 'system.view', tag,
    summary: 'The certificate-provider environment (secrets answered as set flags)', response: envelope(s.providerSetting) }),
  setProvider: defineRoute({ id: 'client.setting.system.zeroSSL.set', method: 'PUT', path: 'client/setting/system/zeroSSL', tier: 'client', permission: 'system.edit', tag,
    summary: 'Choose the CA: Let\'s Encrypt (production or staging), ZeroSSL with EAB, Google Trust Services, or a custom directory with a CA bundle',
    body: s.providerSettingBody, response: envelope(s.providerSetting) }),
  googleTrust: defineRoute({ id: 'client.setting.system.googleTrust', method: 'GET', path: 'client/setting/system/googleTrust', tier: 'client', permission: 'system.view', tag,
    summary: "Google Trust Services' external account binding (the HMAC key answered as a set flag)", response: envelope(s.googleTrustSetting) }),
  setGoogleTrust: defineRoute({ id: 'client.setting.system.googleTrust.set', method: 'PUT', path: 'client/setting/system/googleTrust', tier: 'client', permission: 'system.edit', tag,
    summary: "Store Google Trust Services' external account binding", body: s.googleTrustBody, response: envelope(s.googleTrustSetting) }),
};

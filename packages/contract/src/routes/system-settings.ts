import * as s from '../schemas/system-settings';
import { envelope } from '../paging';
import { defineRoute } from '../route';
import { testSent } from '../schemas/notifications';

const tag = 'System settings';
const tier = 'client' as const;

const get = (name: string, label: string) => ({
  id: `client.setting.${name}`, method: 'GET' as const, path: `setting/system/${name}`, tier, permission: 'system.view', tag, summary: `The ${label} (defaults until set)`,
});
const put = (name: string, label: string) => ({
  id: `client.setting.${name}.update`, method: 'PUT' as const, path: `setting/system/${name}`, tier, permission: 'system.edit', tag, summary: `Store the ${label}`,
});
const OUTGOING = 'outgoing URL: the chat-bot API base address';
const RAY_LOG = 'CDN ray log setting: the parts of each request the edge logs';
const VERIFY = 'account verify setting: token lifetimes of new sign-ins';
const CIDRS = 'restricted subnets (CIDR blocks)';

export const systemSettingRoutes = {
  outgoingURL: {
    get: defineRoute({ ...get('outgoingURL', OUTGOING), response: envelope(s.outgoingUrlAnswer) }),
    put: defineRoute({ ...put('outgoingURL', OUTGOING), body: s.outgoingUrlSetting, response: envelope(s.outgoingUrlAnswer) }),
  },
  CDNRayLog: {
    get: defineRoute({ ...get('CDNRayLog', RAY_LOG), response: envelope(s.cdnRayLogAnswer) }),
    put: defineRoute({ ...put('CDNRayLog', RAY_LOG), body: s.cdnRayLogSetting, response: envelope(s.cdnRayLogAnswer) }),
  },
  accountVerify: {
    get: defineRoute({ ...get('accountVerify', VERIFY), response: envelope(s.accountVerifyAnswer) }),
    put: defineRoute({ ...put('accountVerify', VERIFY), body: s.accountVerifySetting, response: envelope(s.accountVerifyAnswer) }),
  },
  restrictGroupCIDRs: {
    get: defineRoute({ ...get('restrictGroupCIDRs', CIDRS), response: envelope(s.restrictGroupCidrsAnswer) }),
    put: defineRoute({ ...put('restrictGroupCIDRs', CIDRS), body: s.restrictGroupCidrsSetting, response: envelope(s.restrictGroupCidrsAnswer) }),
  },
  email: {
    get: defineRoute({ id: 'client.setting.email', method: 'GET', path: 'client/setting/email', tier, permission: 'system.view', tag,
      summary: "The client's outgoing mail server for notices (the password is never answered)", response: envelope(s.emailSetting) }),
    put: defineRoute({ id: 'client.setting.email.update', method: 'PUT', path: 'client/setting/email', tier, permission: 'system.edit', tag,
      summary: "Store the client's outgoing mail server; a password left out keeps the stored one", body: s.emailSettingBody, response: envelope(s.emailSetting) }),
    test: defineRoute({ id: 'client.setting.email.test', method: 'POST', path: 'client/setting/email/test', tier, permission: 'system.edit', tag,
      summary: 'Send a test mail through the stored mail server (101020 when the server refuses it)', body: s.emailTestBody, response: envelope(testSent) }),
  },
} as const;

import type { z } from 'zod';
import * as s from '../schemas/system-settings';
import { envelope } from '../paging';
import { defineRoute } from '../route';
import { testSent } from '../schemas/notifications';

const tag = 'System settings';
const tier = 'client' as const;

/** A GET and PUT pair of one client-wide setting under `setting/system/`. */
const setting = <B extends z.ZodType, R extends z.ZodType>(name: string, label: string, body: B, answer: R) => ({
  get: defineRoute({ id: `client.setting.${name}`, method: 'GET', path: `setting/system/${name}`, tier, permission: 'system.view', tag,
    summary: `The ${label} (defaults until set)`, response: envelope(answer) }),
  put: defineRoute({ id: `client.setting.${name}.update`, method: 'PUT', path: `setting/system/${name}`, tier, permission: 'system.edit', tag,
    summary: `Store the ${label}`, body, response: envelope(answer) }),
});

export const systemSettingRoutes = {
  outgoingURL: setting('outgoingURL', 'outgoing URL: the chat-bot API base address', s.outgoingUrlSetting, s.outgoingUrlAnswer),
  CDNRayLog: setting('CDNRayLog', 'CDN ray log setting: the parts of each request the edge logs', s.cdnRayLogSetting, s.cdnRayLogAnswer),
  accountVerify: setting('accountVerify', 'account verify setting: token lifetimes of new sign-ins', s.accountVerifySetting, s.accountVerifyAnswer),
  restrictGroupCIDRs: setting('restrictGroupCIDRs', 'restricted subnets (CIDR blocks)', s.restrictGroupCidrsSetting, s.restrictGroupCidrsAnswer),
  email: {
    get: defineRoute({ id: 'client.setting.email', method: 'GET', path: 'client/setting/email', tier, permission: 'system.view', tag,
      summary: "The client's outgoing mail server for notices (the password is never answered)", response: envelope(s.emailSetting) }),
    put: defineRoute({ id: 'client.setting.email.update', method: 'PUT', path: 'client/setting/email', tier, permission: 'system.edit', tag,
      summary: "Store the client's outgoing mail server; a password left out keeps the stored one", body: s.emailSettingBody, response: envelope(s.emailSetting) }),
    test: defineRoute({ id: 'client.setting.email.test', method: 'POST', path: 'client/setting/email/test', tier, permission: 'system.edit', tag,
      summary: 'Send a test mail through the stored mail server (101020 when the server refuses it)', body: s.emailTestBody, response: envelope(testSent) }),
  },
} as const;

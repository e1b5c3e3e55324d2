import { TIERS, type Tier } from '../tiers';
import * as s from '../schemas/notifications';
import { envelope } from '../paging';
import { defineRoute } from '../route';

const tag = 'Notifications';

/** Client and user keys guard the settings; admins have no notify key in their catalogue, so any admin may set its own. */
const permissionOf = (tier: Tier, action: 'view' | 'edit') => (tier === 'client' ? `system.${action}` : tier === 'user' ? 'notify.edit' : undefined);

const botRoutes = (tier: Tier) => ({
  get: defineRoute({ id: `${tier}.setting.tg`, method: 'GET', path: `${tier}/setting/tg`, tier, permission: permissionOf(tier, 'view'), tag,
    summary: "The account's chat-bot notice channel (the token is never answered)", response: envelope(s.botSetting) }),
  put: defineRoute({ id: `${tier}.setting.tg.update`, method: 'PUT', path: `${tier}/setting/tg`, tier, permission: permissionOf(tier, 'edit'), tag,
    summary: "Store the account's chat-bot channel: enable, bot token (left out: kept) and the register command (101021 for a malformed token)",
    body: s.botSettingBody, response: envelope(s.botSetting) }),
  test: defineRoute({ id: `${tier}.setting.tg.test`, method: 'POST', path: `${tier}/setting/tg/test`, tier, permission: permissionOf(tier, 'edit'), tag,
    summary: 'Send a test message through the bot to the chat that sent the register command (101021 when the API refuses the token)',
    response: envelope(s.testSent) }),
});

const preferenceRoutes = (tier: Tier) => ({
  get: defineRoute({ id: `${tier}.setting.notify`, method: 'GET', path: `${tier}/setting/notify`, tier, permission: permissionOf(tier, 'view'), tag,
    summary: "The account's notice choices: channels and events", response: envelope(s.notifyPreferencesAnswer) }),
  put: defineRoute({ id: `${tier}.setting.notify.update`, method: 'PUT', path: `${tier}/setting/notify`, tier, permission: permissionOf(tier, 'edit'), tag,
    summary: "Store the account's notice choices", body: s.notifyPreferences, response: envelope(s.notifyPreferencesAnswer) }),
});

const perTierOf = <T>(make: (tier: Tier) => T) => Object.fromEntries(TIERS.map((t) => [t, make(t)])) as Record<Tier, T>;

export const notificationRoutes = { tg: perTierOf(botRoutes), notify: perTierOf(preferenceRoutes) };

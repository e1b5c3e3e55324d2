import { z } from 'zod';
import * as b from '../schemas/branding';
import * as s from '../schemas/client-settings';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tier = 'client' as const;
const branding = 'Branding';
const system = 'System settings';

export const brandingRoutes = {
  get: defineRoute({ id: 'client.setting.logos', method: 'GET', path: 'client/setting/logos', tier, permission: 'branding.edit', tag: branding,
    summary: "The client's branding: title, copyright and image addresses (null where the default shows)", response: envelope(b.clientBranding) }),
  setTexts: defineRoute({ id: 'client.setting.logos.set', method: 'POST', path: 'client/setting/logos', tier, permission: 'branding.edit', tag: branding,
    summary: 'Set the title and copyright (JSON)', body: b.brandingTexts, response: envelope(b.clientBranding) }),
  upload: defineRoute({ id: 'client.setting.logo.create', method: 'POST', path: 'client/setting/logo', tier, permission: 'branding.edit', tag: branding,
    summary: 'Set branding from form data: title, copyright and the images (PNG, JPEG, GIF, WebP or ICO; 101003 for another type or a file too large)',
    body: b.brandingForm, response: envelope(b.clientBranding) }),
  replace: defineRoute({ id: 'client.setting.logo.update', method: 'PUT', path: 'client/setting/logo', tier, permission: 'branding.edit', tag: branding,
    summary: 'Replace branding parts from form data (as POST)', body: b.brandingForm, response: envelope(b.clientBranding) }),
  reset: defineRoute({ id: 'client.setting.logo.remove', method: 'DELETE', path: 'client/setting/logo', tier, permission: 'branding.edit', tag: branding,
    summary: 'Set branding fields back to the default (form data or JSON: fields)', body: b.brandingReset, response: envelope(b.clientBranding) }),
  image: defineRoute({ id: 'branding.image', method: 'GET', path: 'branding/{clientId}/{field}', tier: 'any', public: true, download: true, tag: branding,
    summary: 'A branding image (public: the sign-in screens show it)', params: b.brandingImageParams, query: b.brandingImageQuery, response: z.string() }),
} as const;

export const clientSettingRoutes = {
  errorPages: defineRoute({ id: 'client.setting.errorPages', method: 'GET', path: 'client/setting/errorPages', tier, permission: 'system.view', tag: system,
    summary: "The client's default error pages: the edge serves them for sites without one of their own for the status", query: s.clientErrorPagesQuery, response: paged(s.clientErrorPage) }),
  createErrorPage: defineRoute({ id: 'client.setting.errorPage.create', method: 'POST', path: 'client/setting/errorPage', tier, permission: 'system.edit', tag: system,
    summary: 'Add a default error page (one per status: 101025)', body: s.createClientErrorPage, response: envelope(s.clientErrorPage) }),
  updateErrorPage: defineRoute({ id: 'client.setting.errorPage.update', method: 'PUT', path: 'client/setting/errorPage', tier, permission: 'system.edit', tag: system,
    summary: 'Change a default error page', body: s.updateClientErrorPage, response: envelope(s.clientErrorPage) }),
  removeErrorPages: defineRoute({ id: 'client.setting.errorPage.remove', method: 'DELETE', path: 'client/setting/errorPage', tier, permission: 'system.edit', tag: system,
    summary: 'Remove default error pages', body: s.removeClientErrorPages, response: done }),
  frequency: defineRoute({ id: 'client.setting.frequency', method: 'GET', path: 'client/setting/frequency', tier, permission: 'system.view', tag: system,
    summary: 'The predefined trigger rates the firewall forms offer', response: envelope(s.triggerRates) }),
  setFrequency: defineRoute({ id: 'client.setting.frequency.set', method: 'PUT', path: 'client/setting/frequency', tier, permission: 'system.edit', tag: system,
    summary: 'Set the predefined trigger rates', body: s.triggerRates, response: envelope(s.triggerRates) }),
  userFrequency: defineRoute({ id: 'user.setting.frequency', method: 'GET', path: 'user/setting/frequency', tier: 'user', permission: 'firewall.view', tag: system,
    summary: "The predefined trigger rates of the user's client, for the firewall forms", response: envelope(s.triggerRates) }),
  nginx: defineRoute({ id: 'client.setting.nginx', method: 'GET', path: 'client/setting/nginx', tier, permission: 'system.view', tag: system,
    summary: "The client's nginx directives per context, and the nodes whose nginx -t refused their configuration", response: envelope(s.clientNginx) }),
  setNginx: defineRoute({ id: 'client.setting.nginx.set', method: 'PUT', path: 'client/setting/nginx/{context}', tier, permission: 'system.edit', tag: system,
    summary: 'Set the nginx directives of a context (http, stream, worker: the main context, custom: every site server) on every node of the zones; a node whose nginx -t refuses them keeps its last good configuration and reports the error',
    params: s.nginxContextParams, body: s.nginxDirectives, response: envelope(s.clientNginx) }),
} as const;

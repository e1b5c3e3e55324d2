import { z } from 'zod';
import { ITEM_LIST_MAX, TEXT_FIELD_MAX } from '../constants';

export { ITEM_LIST_MAX };
import { email } from './account';
import * as edge from '../edge/zone-data';

const host = z.string().trim().min(1).max(253).regex(/^[A-Za-z0-9.-]+$|^\[?[0-9A-Fa-f:.]+\]?$/, 'Wrong Fromat!');

/**
 * The client's outgoing mail server: notices to the client and its users leave through it when it is enabled
 * (otherwise through the platform's mail). The password is write-only: the answer says whether one is set.
 */
export const emailSettingBase = z.object({
  enabled: z.boolean(),
  host: z.union([host, z.literal('')]).default(''),
  port: z.number().int().min(1).max(65535).default(587),
  /** true: TLS from the first byte (port 465); false: STARTTLS when the server offers it. */
  secure: z.boolean().default(false),
  username: z.string().max(TEXT_FIELD_MAX).default(''),
  from: z.union([email, z.literal('')]).default(''),
});
export const emailSettingBody = emailSettingBase
  .extend({
    /** Absent: keep the stored password; '': remove it. */
    password: z.string().max(TEXT_FIELD_MAX).optional(),
  })
  .refine((v) => !v.enabled || v.host !== '', { message: 'Required Field!', path: ['host'] })
  .refine((v) => !v.enabled || v.from !== '', { message: 'Required Field!', path: ['from'] });
export const emailSetting = emailSettingBase.extend({ passwordSet: z.boolean(), updatedAt: z.string().nullable() });
export type EmailSetting = z.infer<typeof emailSetting>;
export const emailTestBody = z.object({ to: email });

/** The base address of the chat-bot API (Telegram-compatible) that chat-bot notices go out through. */
export const outgoingUrlSetting = z.object({
  url: z.union([z.url({ protocol: /^https?$/ }).max(TEXT_FIELD_MAX), z.literal('')]),
});

/**
 * What the ray id (the id of one request at the edge: its response header, its access line and its block page)
 * carries after the request id: the node that served it, the site, the request's start time.
 */
export const LOG_PARTS = edge.RAY_PARTS;
export const cdnRayLogSetting = z.object({
  logParts: z
    .array(z.enum(LOG_PARTS))
    .max(LOG_PARTS.length)
    .transform((parts) => LOG_PARTS.filter((p) => parts.includes(p))),
});
export const DEFAULT_LOG_PARTS = edge.DEFAULT_RAY_PARTS;

/** Token lifetimes of new sign-ins of the client and its users. */
export const ACCESS_TOKEN_MINUTES = { min: 5, max: 1440, default: 15 } as const;
export const REFRESH_TOKEN_DAYS = { min: 1, max: 365, default: 30 } as const;
export const accountVerifySetting = z.object({
  accessTokenMinutes: z.number().int().min(ACCESS_TOKEN_MINUTES.min).max(ACCESS_TOKEN_MINUTES.max),
  refreshTokenDays: z.number().int().min(REFRESH_TOKEN_DAYS.min).max(REFRESH_TOKEN_DAYS.max),
});

/** A restricted subnet: an IPv4 or IPv6 CIDR block; requests from it are refused on every node of the client. */
export const cidr = z.string().trim().pipe(z.union([z.cidrv4(), z.cidrv6()]));
export const restrictGroupCidrsSetting = z.object({
  cidrs: z
    .array(cidr)
    .max(ITEM_LIST_MAX)
    .refine((list) => new Set(list.map((c) => c.toLowerCase())).size === list.length, { message: 'Data already exists!' }),
});

const updatedAt = z.string().nullable();
export const outgoingUrlAnswer = z.object({ url: z.string(), updatedAt });
export const cdnRayLogAnswer = z.object({ logParts: z.array(z.enum(LOG_PARTS)), updatedAt });
export const accountVerifyAnswer = z.object({ accessTokenMinutes: z.number().int(), refreshTokenDays: z.number().int(), updatedAt });
export const restrictGroupCidrsAnswer = z.object({ cidrs: z.array(z.string()), updatedAt });

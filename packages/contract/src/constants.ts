/** Business constants of spec §1 and §9. */
export const FRONTEND_VERSION = '1.11.0';
export const DEFAULT_PAGE = 1;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 500;
export const PAGE_SIZE_OPTIONS = [25, 50, 100, 200, 500] as const;
export const REQUEST_TIMEOUT_MS = 300_000;
export const POST_CALL_DELAY_MS = 200;
export const TOAST_TOP_PX = 50;
export const COOKIE_LIFETIME_DAYS = 730;
export const NODE_LIST_REFRESH_MS = 5000;
export const NODE_INFO_REFRESH_MS = 2000;
export const QPS_POLL_MS = 300_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const TEXT_FIELD_MAX = 256;
export const ITEM_LIST_MAX = 5000;
export const REDIRECT_RULE_MAX = 3000;
export const CERT_DOMAIN_MAX = 64;
export const LANGUAGES = ['zh_TW', 'zh_CN', 'en_US'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh_TW';
export const DEFAULT_BRANDING = {
  title: 'EdgeKeep',
  copyright: 'Copyright © EdgeKeep. All rights reserved.',
} as const;
/** A mailed or generated sign-in code: six digits, single use, ten minutes. */
export const LOGIN_CODE_TTL_SECONDS = 600;
export const SET_PASSWORD_TOKEN_TTL_SECONDS = 3 * 24 * 3600;
export const PASSWORD_MIN_LENGTH = 8;
/** login2FAType of DESIGN.md: 0 a code was mailed, 1 authenticator app, 2 no second factor. */
export const LOGIN_2FA = { mail: 0, app: 1, none: 2 } as const;
/** Certificate applications per registered domain within CERT_BUDGET_DAYS (the provider's limit, spec §5/§9). */
export const CERT_BUDGET = 50;
export const CERT_BUDGET_DAYS = 7;

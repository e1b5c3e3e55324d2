/** The translation names of spec §4's site statuses, in the API's order (0 paused … 3 expired). */
export const SITE_STATUS_NAMES = ['statusPaused', 'statusNormal', 'statusLocked', 'statusExpired'] as const;

/** The site a user-menu screen last worked on, remembered between screens and visits. */
export const SELECTED_SITE_KEY = 'selectedSite';

/** Spec §4 Logout: stored site and zone selections go with the session. */
export const forgetSelections = () => localStorage.removeItem(SELECTED_SITE_KEY);

/** Navigation for code outside components; the router installs its own navigate once it exists. */
let navigateTo: (to: string) => void = (to) => window.location.assign(to);

export const setNavigator = (fn: (to: string) => void) => {
  navigateTo = fn;
};

export const goTo = (to: string) => navigateTo(to);

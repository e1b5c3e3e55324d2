/** Registers the console's service worker once the page has loaded (now, when it already has). */
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  const register = () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  if (document.readyState === 'complete') return register();
  window.addEventListener('load', register, { once: true });
}

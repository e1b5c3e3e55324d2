import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './app/global.css';
import { preloadLanding } from './app/preload';
import { Root } from './app/root';
import { registerServiceWorker } from './app/service-worker';
import { initI18n, storedLanguage } from './i18n';
import { loadAntdLocale } from './i18n/antd-locale';

// The messages first (nothing renders without them), then the landing screen's code and data beside them.
const ready = Promise.all([initI18n(), loadAntdLocale(storedLanguage())]);
preloadLanding(window.location.pathname);
const [, locale] = await ready;
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root initialLocale={locale} />
  </StrictMode>,
);
registerServiceWorker();

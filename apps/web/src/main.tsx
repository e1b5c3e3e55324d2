import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './app/global.css';
import { preloadLanding } from './app/preload';
import { Root } from './app/root';
import { registerServiceWorker } from './app/service-worker';
import { initI18n, storedLanguage } from './i18n';
import { loadAntdLocale } from './i18n/antd-locale';

preloadLanding(window.location.pathname);
const [, locale] = await Promise.all([initI18n(), loadAntdLocale(storedLanguage())]);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root initialLocale={locale} />
  </StrictMode>,
);
registerServiceWorker();

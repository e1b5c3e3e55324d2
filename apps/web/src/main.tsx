import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './app/global.css';
import { Root } from './app/root';
import { registerServiceWorker } from './app/service-worker';
import { initI18n } from './i18n';

await initI18n();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
registerServiceWorker();

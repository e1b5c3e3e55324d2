import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { TOAST_TOP_PX, type Language } from '@edgekeep/contract/constants';
import { loadAntdLocale } from '../i18n/antd-locale';
import { setFeedback } from './feedback';
import { handleFailure } from './handle-failure';
import { queryClient, setFailureHandler } from './query-client';
import { router } from './router';

setFailureHandler(handleFailure);

function FeedbackBridge() {
  const api = AntApp.useApp();
  useEffect(() => setFeedback(api), [api]);
  return null;
}

/** The component library's locale follows the console's language. */
function useAntdLocale(initial: Locale) {
  const { i18n } = useTranslation();
  const [locale, setLocale] = useState(initial);
  useEffect(() => {
    let live = true;
    loadAntdLocale(i18n.language as Language).then((l) => live && setLocale(l));
    return () => {
      live = false;
    };
  }, [i18n.language]);
  return locale;
}

export function Root({ initialLocale }: { initialLocale: Locale }) {
  const locale = useAntdLocale(initialLocale);
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={locale} theme={{ token: { colorPrimary: '#0f6cbd' } }}>
        <AntApp message={{ top: TOAST_TOP_PX }}>
          <FeedbackBridge />
          <RouterProvider router={router} />
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}

import { Button } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

const RELOADED_AT = 'ek_chunk_reloaded_at';
/** A second failure this soon after the reload is not a stale tab: the product's error page shows instead. */
const RELOAD_GUARD_MS = 10_000;

/** A screen's code that the browser could not load: after a deploy, an open tab asks for files that are gone. */
export const isChunkFailure = (error: unknown) =>
  error instanceof Error && /dynamically imported module|module script failed|error loading dynamically imported|Failed to fetch/i.test(error.message);

/**
 * What a route shows when it throws: a tab left open over a deploy reloads once (its screens' files changed names),
 * anything else shows the product's own page, in the current language, with a way to reload.
 */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const chunk = isChunkFailure(error);
  const reloadNow = chunk && Date.now() - Number(sessionStorage.getItem(RELOADED_AT) ?? 0) > RELOAD_GUARD_MS;
  useEffect(() => {
    if (!reloadNow) return;
    sessionStorage.setItem(RELOADED_AT, String(Date.now()));
    window.location.reload();
  }, [reloadNow]);
  if (reloadNow) return null;
  // Plain markup and the entry's own button: this page must show even when the screens' files cannot be loaded.
  return (
    <div role="alert" data-testid="route-error" style={{ maxWidth: 560, margin: '96px auto', padding: 24, textAlign: 'center' }}>
      <h2>{t(chunk ? 'error.updatedTitle' : 'error.failedTitle')}</h2>
      <p style={{ color: 'rgba(0, 0, 0, 0.55)' }}>{t(chunk ? 'error.updatedText' : 'error.failedText')}</p>
      <Button type="primary" onClick={() => window.location.reload()}>
        {t('error.reload')}
      </Button>
    </div>
  );
}

import { App } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

/** Asks before leaving the screen (or closing the tab) while the edited layout has unsaved changes. */
export function useUnsavedPrompt(dirty: boolean) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const blocker = useBlocker(dirty);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    modal.confirm({
      title: t('dashboardWidgets.unsavedTitle'),
      content: t('dashboardWidgets.unsavedContent'),
      okText: t('dashboardWidgets.discard'),
      cancelText: t('common.cancel'),
      onOk: () => blocker.proceed(),
      onCancel: () => blocker.reset(),
    });
  }, [blocker, modal, t]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
}

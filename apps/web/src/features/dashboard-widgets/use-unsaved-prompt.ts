import { App } from 'antd';
import type { TFunction } from 'i18next';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

type ModalApi = ReturnType<typeof App.useApp>['modal'];

/** Asks whether to drop the unsaved changes of the layout being edited. */
export const confirmDiscard = ({ modal, t, onOk, onCancel }: { modal: ModalApi; t: TFunction; onOk: () => void; onCancel?: () => void }) =>
  modal.confirm({
    title: t('dashboardWidgets.unsavedTitle'),
    content: t('dashboardWidgets.unsavedContent'),
    okText: t('dashboardWidgets.discard'),
    cancelText: t('common.cancel'),
    onOk,
    onCancel,
  });

/** Asks before leaving the screen (or closing the tab) while the edited layout has unsaved changes. */
export function useUnsavedPrompt(dirty: boolean) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const blocker = useBlocker(dirty);
  useEffect(() => {
    if (blocker.state === 'blocked') confirmDiscard({ modal, t, onOk: () => blocker.proceed(), onCancel: () => blocker.reset() });
  }, [blocker, modal, t]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
}

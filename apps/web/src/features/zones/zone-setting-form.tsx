import { useMutation } from '@tanstack/react-query';
import { Button, Card, Form } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { infraApi } from '../../api/infra';
import type { ZoneSettingBodies, ZoneSettings } from '../../api/infra-types';
import { toast } from '../../app/feedback';
import { queryClient } from '../../app/query-client';

/** What every tab of the zone settings drawer gets. */
export type ZoneTabProps = { zoneID: number; value: ZoneSettings; canEdit: boolean };

export const zoneSettingsKey = (zoneID: number) => ['zoneSettings', zoneID];

/** Saves one zone setting; the answer (every setting) replaces the drawer's copy, then the fixed message shows. */
export function useSaveZoneSetting<K extends keyof ZoneSettingBodies>(zoneID: number, name: K, message?: string) {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: (body: ZoneSettingBodies[K]) => infraApi.setZoneSetting(zoneID, name, body),
    onSuccess: (next) => {
      queryClient.setQueryData(zoneSettingsKey(zoneID), next);
      toast.success(message ?? t('infra.setSuccess'));
    },
  });
}

/** A card holding one setting's form and its save button. */
export function SettingCard<T extends object>(props: {
  title: string;
  extra?: ReactNode;
  canEdit: boolean;
  initial: T;
  saving: boolean;
  onSave: (values: T) => void;
  children: ReactNode;
  testId?: string;
  /** Prefixes the field ids, for a form whose field names another form of the tab also has. */
  formName?: string;
  /** A new value starts the form afresh from `initial` (the card and its `extra`, such as an open confirmation, stay). */
  resetKey?: string;
}) {
  const { t } = useTranslation();
  return (
    <Card title={props.title} size="small" extra={props.extra} data-testid={props.testId}>
      <Form<T>
        key={props.resetKey}
        name={props.formName}
        layout="vertical"
        disabled={!props.canEdit}
        initialValues={props.initial}
        onFinish={props.onSave}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
      >
        {props.children}
        <Button type="primary" htmlType="submit" loading={props.saving}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}

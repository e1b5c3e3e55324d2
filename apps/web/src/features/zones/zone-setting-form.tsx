import { Button, Card, Form } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import type { ZoneSettings } from './queries';

/** What every tab of the zone settings drawer gets. */
export type ZoneTabProps = { zoneID: number; value: ZoneSettings; canEdit: boolean };

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

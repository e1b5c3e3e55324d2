import { Button, Card, Form } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';

type Props<S, F> = {
  title: string;
  testId: string;
  /** The stored setting (undefined while it loads); the form shows `toForm` of it. */
  stored: S | undefined;
  loading: boolean;
  toForm: (stored: S) => F;
  saving: boolean;
  /** Saves the form's values; resolves once stored (a failure is shown by the console's error handling). */
  onSave: (values: F) => Promise<unknown>;
  children: ReactNode;
};

/** One setting of the client's system settings: its form in a card, filled from what is stored, saved by one button. */
export function SettingForm<S, F extends object>({ title, testId, stored, loading, toForm, saving, onSave, children }: Props<S, F>) {
  const { t } = useTranslation();
  const editable = useCan()('system.edit');
  const [form] = Form.useForm<F>();
  useEffect(() => {
    if (stored) form.setFieldsValue(toForm(stored) as Parameters<typeof form.setFieldsValue>[0]);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- toForm is a pure reading of the stored value: the form follows what is stored, not each render's (inline) function, which would refill it while a person types
  }, [stored, form]);
  const save = (values: F) => onSave(values).then(() => toast.success(t('settingTabs.saved')), () => undefined);
  return (
    <Card title={title} loading={loading} data-testid={testId}>
      <Form<F> form={form} layout="vertical" disabled={!editable} onFinish={(v) => void save(v)} onFinishFailed={() => toast.error(t('validation.checkForm'))} style={{ maxWidth: 560 }}>
        {children}
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}

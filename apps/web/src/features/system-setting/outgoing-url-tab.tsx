import { outgoingUrlSetting } from '@edgekeep/contract/schemas/system-settings';
import { Button, Card, Form, Input } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { zodRule } from '../notify-setting/zod-rule';
import { useOutgoingUrl, useSaveOutgoingUrl } from './queries';

const urlOnly = outgoingUrlSetting.shape.url;

/** The base address of the chat-bot API that notices go out through (empty: the platform's). */
export default function OutgoingUrlTab() {
  const { t } = useTranslation();
  const editable = useCan()('system.edit');
  const [form] = Form.useForm<{ url: string }>();
  const setting = useOutgoingUrl();
  const save = useSaveOutgoingUrl();
  const s = setting.data?.data;
  useEffect(() => {
    if (s) form.setFieldsValue({ url: s.url });
  }, [s, form]);
  return (
    <Card title={t('settingTabs.outgoingURL')} loading={setting.isLoading} data-testid="outgoing-url-setting">
      <Form form={form} layout="vertical" disabled={!editable} onFinish={(v) => save.mutate({ url: (v.url ?? '').trim() }, { onSuccess: () => toast.success(t('settingTabs.saved')) })} onFinishFailed={() => toast.error(t('validation.checkForm'))} style={{ maxWidth: 560 }}>
        <Form.Item name="url" label={t('settingTabs.outgoingUrlLabel')} extra={t('settingTabs.outgoingUrlHint')} rules={[zodRule(urlOnly, t('validation.wrongFormat'))]}>
          <Input placeholder="https://api.telegram.org" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}

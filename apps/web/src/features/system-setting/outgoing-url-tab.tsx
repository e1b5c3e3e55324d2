import { outgoingUrlSetting } from '@edgekeep/contract/schemas/system-settings';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../components/form-rules';
import { useOutgoingUrl, useSaveOutgoingUrl } from './queries';
import { SettingForm } from './setting-form';

const urlOnly = outgoingUrlSetting.shape.url;

/** The base address of the chat-bot API that notices go out through (empty: the platform's). */
export default function OutgoingUrlTab() {
  const { t } = useTranslation();
  const setting = useOutgoingUrl();
  const save = useSaveOutgoingUrl();
  return (
    <SettingForm<{ url: string }, { url?: string }>
      title={t('settingTabs.outgoingURL')}
      testId="outgoing-url-setting"
      stored={setting.data?.data}
      loading={setting.isLoading}
      toForm={(s) => ({ url: s.url })}
      saving={save.isPending}
      onSave={(v) => save.mutateAsync({ url: (v.url ?? '').trim() })}
    >
      <Form.Item name="url" label={t('settingTabs.outgoingUrlLabel')} extra={t('settingTabs.outgoingUrlHint')} rules={[zodRule(urlOnly, t('validation.wrongFormat'))]}>
        <Input placeholder="https://api.telegram.org" />
      </Form.Item>
    </SettingForm>
  );
}

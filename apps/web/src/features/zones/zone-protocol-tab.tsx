import { infraSchemas } from '@edgekeep/contract';
import { Card, Form, Select, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSaveZoneSetting } from './queries';
import { SettingCard, type ZoneTabProps } from './zone-setting-form';

const HINTS = { http2: 'zones.http2Hint', http3: 'zones.http3Hint' } as const;

function ProtocolSwitch({ zoneID, value, canEdit, name }: ZoneTabProps & { name: 'http2' | 'http3' }) {
  const { t } = useTranslation();
  const save = useSaveZoneSetting(zoneID, name);
  return (
    <Card title={t(`zones.${name}`)} size="small">
      <Space>
        <Switch checked={value[name].enabled} disabled={!canEdit} loading={save.isPending} onChange={(enabled) => save.mutate({ enabled })} data-testid={`zone-${name}`} />
        <Typography.Text type="secondary">{t(HINTS[name])}</Typography.Text>
      </Space>
    </Card>
  );
}

function RedirectCodeCard({ zoneID, value, canEdit }: ZoneTabProps) {
  const { t } = useTranslation();
  const save = useSaveZoneSetting(zoneID, 'forceSSLRedirectCode');
  return (
    <SettingCard title={t('zones.forceSSLRedirectCode')} canEdit={canEdit} initial={value.forceSSLRedirectCode} saving={save.isPending} onSave={(v) => save.mutate(v)}>
      <Form.Item name="code" extra={t('zones.forceSSLRedirectCodeHint')}>
        <Select style={{ width: 160 }} options={infraSchemas.FORCE_SSL_REDIRECT_CODES.map((code) => ({ value: code, label: String(code) }))} />
      </Form.Item>
    </SettingCard>
  );
}

/** HTTP/2, HTTP/3 and the status of the force-SSL redirect. */
export function ZoneProtocolTab(props: ZoneTabProps) {
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <ProtocolSwitch {...props} name="http2" />
      <ProtocolSwitch {...props} name="http3" />
      <RedirectCodeCard {...props} />
    </Space>
  );
}

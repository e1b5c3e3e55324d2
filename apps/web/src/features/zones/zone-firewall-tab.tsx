import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { edge, infraSchemas } from '@edgekeep/contract';
import { Button, Card, Form, Input, Popconfirm, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormRules } from '../../components/form-rules';
import { useLines } from '../sites/lines';
import { useFlushIpsets, useSaveZoneSetting } from './queries';
import { SettingCard, type ZoneTabProps } from './zone-setting-form';

type SetsForm = { sets: { name: string; ips: string }[] };

function FirewallSwitch({ zoneID, value, canEdit }: ZoneTabProps) {
  const { t } = useTranslation();
  const save = useSaveZoneSetting(zoneID, 'firewall');
  return (
    <Card title={t('zones.firewall')} size="small">
      <Space>
        <Switch checked={value.firewall.enabled} disabled={!canEdit} loading={save.isPending} onChange={(enabled) => save.mutate({ enabled })} data-testid="zone-firewall" />
        <Typography.Text type="secondary">{t('zones.firewallHint')}</Typography.Text>
      </Space>
    </Card>
  );
}

function IpsetCard({ zoneID, value, canEdit }: ZoneTabProps) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const lines = useLines((line) => edge.ipEntry.safeParse(line).success);
  const save = useSaveZoneSetting(zoneID, 'ipset');
  const flush = useFlushIpsets(zoneID);
  const initial: SetsForm = { sets: value.ipset.sets.map((s) => ({ name: s.name, ips: s.ips.join('\n') })) };
  return (
    <SettingCard<SetsForm>
      resetKey={JSON.stringify(value.ipset)}
      title={t('zones.ipset')}
      extra={
        <Popconfirm title={t('zones.flushConfirm')} onConfirm={() => flush.mutate()} disabled={!canEdit}>
          <Button danger size="small" loading={flush.isPending} disabled={!canEdit} data-testid="ipset-flush">
            {t('zones.flush')}
          </Button>
        </Popconfirm>
      }
      canEdit={canEdit}
      initial={initial}
      saving={save.isPending}
      onSave={(v) => save.mutate({ sets: v.sets.map((s) => ({ name: s.name.trim(), ips: lines.split(s.ips) })) })}
    >
      <Typography.Paragraph type="secondary">{t('zones.ipsetHint')}</Typography.Paragraph>
      <Form.List name="sets">
        {(fields, { add, remove }) => (
          <>
            {fields.map((field) => (
              <Space key={field.key} align="start" style={{ display: 'flex' }}>
                <Form.Item name={[field.name, 'name']} rules={[rules.required, { max: 64 }]}>
                  <Input placeholder={t('zones.ipsetName')} style={{ width: 140 }} />
                </Form.Item>
                <Form.Item name={[field.name, 'ips']} rules={[lines.rule]} extra={t('zones.ipsetIpsHint')}>
                  <Input.TextArea rows={3} placeholder={'203.0.113.7\n2001:db8::/64'} style={{ width: 260 }} />
                </Form.Item>
                <Button icon={<DeleteOutlined />} onClick={() => remove(field.name)} aria-label={t('common.remove')} />
              </Space>
            ))}
            {fields.length < infraSchemas.IPSET_MAX_SETS ? (
              <Button icon={<PlusOutlined />} onClick={() => add({ name: '', ips: '' })} style={{ marginBottom: 16 }}>
                {t('zones.addIpset')}
              </Button>
            ) : null}
          </>
        )}
      </Form.List>
    </SettingCard>
  );
}

/** The zone's firewall switch and its IP sets (refused on every site of the zone). */
export function ZoneFirewallTab(props: ZoneTabProps) {
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <FirewallSwitch {...props} />
      <IpsetCard {...props} />
    </Space>
  );
}

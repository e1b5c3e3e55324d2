import { domainSchemas } from '@edgekeep/contract';
import { Form, Input, InputNumber, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { DomainSettingsSummary } from '../domains/domain-settings-summary';
import { ORIGIN_DEFAULTS } from './origin-fields';
import { OriginListDrawer } from './origin-list-drawer';
import { siteCalls, siteKeys, type Domain, type Upstream, type UpstreamInput } from './queries';

/** One domain: its settings, then its origins, with the keepalive connections and hash key a domain's upstream has. */
export function OriginsDrawer({ siteId, domain, editable, onClose }: { siteId: number; domain: Domain; editable: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const hashValid = (v: string) => !v || domainSchemas.upstreamInput.shape.hash.safeParse(v).success;
  return (
    <OriginListDrawer<Upstream, UpstreamInput>
      title={t('domains.originsDrawer', { name: domain.name })}
      scope="origins"
      listKey={siteKeys.domainUpstreams(siteId, domain.id)}
      refresh={[siteKeys.domains(siteId)]}
      calls={{
        list: (query) => siteCalls.upstreams(siteId, domain.id, query),
        add: (u) => siteCalls.addUpstreams(siteId, domain.id, [u]),
        update: (u) => siteCalls.updateUpstream(siteId, domain.id, u),
        remove: (ids) => siteCalls.removeUpstreams(siteId, domain.id, ids),
      }}
      newOrigin={{ host: '', ...ORIGIN_DEFAULTS, keepalive: 16, hash: '' } as UpstreamInput}
      editable={editable}
      onClose={onClose}
      header={<DomainSettingsSummary siteId={siteId} domainId={domain.id} name={domain.name} />}
      columns={[{ key: 'keepalive', title: t('domainSettings.keepalive'), dataIndex: 'keepalive' }]}
      fields={
        <Space align="start">
          <Form.Item name={['origin', 'keepalive']} label={t('domainSettings.keepalive')} extra={t('domainSettings.keepaliveHint')}>
            <InputNumber min={0} max={1000} precision={0} style={{ width: 140 }} />
          </Form.Item>
          <Form.Item
            name={['origin', 'hash']}
            label={t('domainSettings.hashKey')}
            extra={t('domainSettings.hashKeyHint')}
            rules={[{ validator: (_, v) => (hashValid(v) ? Promise.resolve() : Promise.reject(new Error(t('validation.wrongFormat')))) }]}
          >
            <Input placeholder="$remote_addr" style={{ width: 240 }} />
          </Form.Item>
        </Space>
      }
    />
  );
}

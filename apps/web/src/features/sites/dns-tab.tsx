import { Button, Form, Input, InputNumber, Modal, Select, Space, Tag, type TableColumnsType } from 'antd';
import { DNS_RECORD_TYPES, dnsRecordInput } from '@edgekeep/contract/schemas/site-settings';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { TextFilter } from '../../components/filter-bar';
import { useFormRules, zodRule } from '../../components/form-rules';
import { RemoveLink } from './remove-link';
import { useSiteMutation } from './use-site-mutation';
import { siteKeys, siteOptionCalls, useAllDomains, type DnsRecord, type DnsRecordInput } from './queries';

const { name, memo } = dnsRecordInput.shape;
/** Whether the contract takes the value for the record type (A: IPv4, AAAA: IPv6, CNAME: hostname, MX: "priority host", TXT). */
const valueFits = (type: unknown, value: unknown) =>
  !dnsRecordInput.safeParse({ name: '@', type, value }).error?.issues.some((issue) => issue.path[0] === 'value');

function DnsModal({ siteId, record, onClose }: { siteId: number; record?: DnsRecord; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const domains = useAllDomains(siteId);
  const [form] = Form.useForm<DnsRecordInput>();
  const save = useSiteMutation({
    fn: (v: DnsRecordInput) => siteOptionCalls.saveDnsRecord(siteId, v, record?.id),
    success: record ? 'updateSuccess' : 'createSuccess',
    refresh: [siteKeys.dns(siteId)],
    done: onClose,
  });
  const wrong = t('validation.wrongFormat');
  const valueRule = zodRule({ safeParse: (value) => ({ success: valueFits(form.getFieldValue('type'), value) }) }, wrong);
  return (
    <Modal open title={t(record ? 'siteOptions.editDns' : 'siteOptions.addDns')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={save.isPending}>
      <Form<DnsRecordInput>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={record ?? { type: 'A', ttl: 600, domainIDs: [], memo: '' }}
        onFinish={(v) => save.mutate(v)}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
      >
        <Form.Item name="name" label={t('siteOptions.dnsName')} extra={t('siteOptions.dnsNameHint')} rules={[rules.required, zodRule(name, wrong)]}>
          <Input placeholder="www" data-testid="dns-name" />
        </Form.Item>
        <Form.Item name="type" label={t('siteOptions.dnsType')} rules={[rules.required]}>
          <Select options={DNS_RECORD_TYPES.map((v) => ({ value: v, label: v }))} onChange={() => form.validateFields(['value']).catch(() => undefined)} />
        </Form.Item>
        <Form.Item name="value" label={t('siteOptions.dnsValue')} rules={[rules.required, valueRule]}>
          <Input data-testid="dns-value" />
        </Form.Item>
        <Form.Item name="ttl" label="TTL" rules={[rules.required]}>
          <InputNumber min={60} max={86_400} precision={0} addonAfter={t('siteOptions.seconds')} style={{ width: 220 }} />
        </Form.Item>
        <Form.Item name="domainIDs" label={t('siteOptions.dnsDomains')}>
          <Select mode="multiple" optionFilterProp="label" options={(domains.data?.data ?? []).map((d) => ({ value: d.id, label: d.name }))} />
        </Form.Item>
        <Form.Item name="memo" label={t('siteOptions.memo')} rules={[zodRule(memo, wrong)]}>
          <Input />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** DNS records the site wants for its domains; kept and shown here, applied by the DNS provider integration. */
export function DnsTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const editable = useCan()('sites.edit');
  const domains = useAllDomains(siteId);
  const [editing, setEditing] = useState<DnsRecord | 'new'>();
  const remove = useSiteMutation({ fn: (ids: number[]) => siteOptionCalls.removeDnsRecords(siteId, ids), success: 'removeSuccess', refresh: [siteKeys.dns(siteId)] });
  const nameOf = (id: number) => domains.data?.data.find((d) => d.id === id)?.name ?? `#${id}`;
  const columns: TableColumnsType<DnsRecord> = [
    { key: 'name', title: t('siteOptions.dnsName'), dataIndex: 'name' },
    { key: 'type', title: t('siteOptions.dnsType'), render: (_, r) => <Tag>{r.type}</Tag> },
    { key: 'value', title: t('siteOptions.dnsValue'), dataIndex: 'value' },
    { key: 'ttl', title: 'TTL', dataIndex: 'ttl' },
    {
      key: 'domains',
      title: t('siteOptions.dnsDomains'),
      render: (_, r) => (
        <Space size={4} wrap>
          {r.domainIDs.map((id) => (
            <Tag key={id}>{nameOf(id)}</Tag>
          ))}
        </Space>
      ),
    },
    { key: 'memo', title: t('siteOptions.memo'), dataIndex: 'memo' },
    {
      key: 'actions',
      title: t('sites.actions'),
      render: (_, r) =>
        editable ? (
          <Space>
            <Button size="small" type="link" onClick={() => setEditing(r)}>
              {t('sites.edit')}
            </Button>
            <RemoveLink name={`${r.name} ${r.type}`} onConfirm={() => remove.mutate([r.id])} />
          </Space>
        ) : null,
    },
  ];
  return (
    <>
      <DataTable<DnsRecord>
        queryKey={siteKeys.dns(siteId)}
        fetch={(query) => siteOptionCalls.dnsRecords(siteId, query)}
        columns={columns}
        rowKey="id"
        filters={<TextFilter name="keyword" placeholder={t('siteOptions.dnsSearch')} />}
        toolbar={
          editable ? (
            <Button type="primary" onClick={() => setEditing('new')}>
              {t('siteOptions.addDns')}
            </Button>
          ) : null
        }
      />
      {editing ? <DnsModal siteId={siteId} record={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} /> : null}
    </>
  );
}

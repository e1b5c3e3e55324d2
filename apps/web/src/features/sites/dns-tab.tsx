import { Button, Form, Input, InputNumber, Modal, Select, Space, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { siteOptionsApi, type DnsRecord, type DnsRecordInput } from '../../api/site-options';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { TextFilter } from '../../components/filter-bar';
import { useFormRules } from '../../components/form-rules';
import { optionKeys } from './option-keys';
import { useAllDomains } from './queries';
import { RemoveLink } from './remove-link';
import { useSiteMutation } from './use-site-mutation';

const TYPES = ['A', 'AAAA', 'CNAME', 'TXT', 'MX'] as const;
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const HOST = /^([a-z0-9_]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}\.?$/;
const VALUE_CHECKS: Record<(typeof TYPES)[number], (v: string) => boolean> = {
  A: (v) => IPV4.test(v),
  AAAA: (v) => v.includes(':') && /^[0-9a-f:.]+$/i.test(v),
  CNAME: (v) => HOST.test(v.toLowerCase()),
  MX: (v) => /^\d{1,5} \S+$/.test(v) && HOST.test(v.split(' ')[1].toLowerCase()),
  TXT: (v) => v.length <= 255,
};

function DnsModal({ siteId, record, onClose }: { siteId: number; record?: DnsRecord; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const domains = useAllDomains(siteId);
  const [form] = Form.useForm<DnsRecordInput>();
  const save = useSiteMutation({
    fn: (v: DnsRecordInput) => (record ? siteOptionsApi.updateDnsRecord(siteId, { ...v, id: record.id }) : siteOptionsApi.createDnsRecord(siteId, v)),
    success: record ? 'updateSuccess' : 'createSuccess',
    refresh: [optionKeys.dns(siteId)],
    done: onClose,
  });
  const valueRule = {
    validator: (_: unknown, v?: string) => {
      const type = form.getFieldValue('type') as (typeof TYPES)[number];
      return !v || VALUE_CHECKS[type]?.(v.trim()) ? Promise.resolve() : Promise.reject(new Error(t('validation.wrongFormat')));
    },
  };
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
        <Form.Item name="name" label={t('siteOptions.dnsName')} extra={t('siteOptions.dnsNameHint')} rules={[rules.required, { pattern: /^(@|\*|(\*\.)?[a-z0-9_.-]+)$/, message: t('validation.wrongFormat') }]}>
          <Input placeholder="www" data-testid="dns-name" />
        </Form.Item>
        <Form.Item name="type" label={t('siteOptions.dnsType')} rules={[rules.required]}>
          <Select options={TYPES.map((v) => ({ value: v, label: v }))} onChange={() => form.validateFields(['value']).catch(() => undefined)} />
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
        <Form.Item name="memo" label={t('siteOptions.memo')} rules={[{ max: 256, message: t('validation.wrongFormat') }]}>
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
  const remove = useSiteMutation({ fn: (ids: number[]) => siteOptionsApi.removeDnsRecords(siteId, ids), success: 'removeSuccess', refresh: [optionKeys.dns(siteId)] });
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
        queryKey={optionKeys.dns(siteId)}
        fetch={(query) => siteOptionsApi.dnsRecords(siteId, query)}
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

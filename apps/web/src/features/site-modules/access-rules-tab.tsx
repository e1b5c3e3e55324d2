import { Empty, Form, Input, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { headerRule, refererRule } from '@edgekeep/contract/edge/site-modules';
import { useFormRules, zodRule } from '../../components/form-rules';
import { accessRules, siteModuleKeys as keys, useAntiHeaders, useReferers, type AntiHeaderInput, type AntiHeaderItem, type RefererItem } from './queries';
import { RowActions, RowEditSubmit, useRowEdit } from './row-edit';
import { useModuleMutation } from './use-module-mutation';
import { useAllDomains } from '../sites/queries';
import { useSiteCan } from '../sites/use-site-can';

const OPERATORS = ['exists', 'missing', 'equals', 'contains', 'regex'] as const;
type RefererForm = { type: 'allow' | 'deny'; referers?: string; empty?: boolean; memo?: string };
/** The referer hosts of the textarea, one per line. */
const lines = (text = '') => text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);

function DomainRules({ siteId, domainId }: { siteId: number; domainId: number }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const editable = useSiteCan()('firewall.edit');
  const refKey = keys.referers(siteId, domainId);
  const hdrKey = keys.antiHeaders(siteId, domainId);
  const referers = useReferers(siteId, domainId);
  const headers = useAntiHeaders(siteId, domainId);
  const [refForm] = Form.useForm<RefererForm>();
  const [hdrForm] = Form.useForm<AntiHeaderInput>();
  const refEdit = useRowEdit(refForm, (r: RefererItem): RefererForm => ({ type: r.type, referers: r.referers.join('\n'), empty: r.empty, memo: r.memo }));
  const hdrEdit = useRowEdit(hdrForm, (h: AntiHeaderItem): AntiHeaderInput => ({ name: h.name, operator: h.operator as AntiHeaderInput['operator'], value: h.value, memo: h.memo }));
  const addRef = useModuleMutation({
    fn: (v: RefererForm) =>
      accessRules.saveReferer(siteId, domainId, refEdit.body({ type: v.type, empty: !!v.empty, memo: v.memo ?? '', referers: lines(v.referers) })),
    success: refEdit.editing ? 'updateSuccess' : 'createSuccess',
    refresh: [refKey],
    done: refEdit.stop,
  });
  const removeRef = useModuleMutation({ fn: (ids: number[]) => accessRules.removeReferers(siteId, domainId, ids), success: 'removeSuccess', refresh: [refKey] });
  const addHdr = useModuleMutation({
    fn: (v: AntiHeaderInput) => accessRules.saveAntiHeader(siteId, domainId, hdrEdit.body(v)),
    success: hdrEdit.editing ? 'updateSuccess' : 'createSuccess',
    refresh: [hdrKey],
    done: hdrEdit.stop,
  });
  const removeHdr = useModuleMutation({ fn: (ids: number[]) => accessRules.removeAntiHeaders(siteId, domainId, ids), success: 'removeSuccess', refresh: [hdrKey] });
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="large">
      <Typography.Title level={5}>{t('siteModules.antiReferer')}</Typography.Title>
      {editable ? (
        <Form<RefererForm> form={refForm} layout="inline" initialValues={{ type: 'allow', empty: true }} onFinish={(v) => addRef.mutate(v)} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
          <Form.Item name="type">
            <Select style={{ width: 120 }} options={[{ value: 'allow', label: t('siteModules.allowOnly') }, { value: 'deny', label: t('siteModules.deny') }]} />
          </Form.Item>
          <Form.Item name="referers" rules={[zodRule({ safeParse: (v) => refererRule.shape.referers.safeParse(lines(String(v))) }, t('validation.wrongFormat'))]}>
            <Input.TextArea rows={2} style={{ width: 280 }} placeholder={'*.example.com\npartner.example.org'} />
          </Form.Item>
          <Form.Item name="empty" label={t('siteModules.emptyReferer')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="memo">
            <Input placeholder={t('siteModules.memo')} />
          </Form.Item>
          <RowEditSubmit edit={refEdit} pending={addRef.isPending} />
        </Form>
      ) : null}
      <Table
        rowKey="id"
        loading={referers.isFetching}
        dataSource={referers.data ?? []}
        pagination={false}
        columns={[
          { key: 'type', title: t('siteModules.action'), render: (_, r) => <Tag color={r.type === 'allow' ? 'green' : 'red'}>{t(r.type === 'allow' ? 'siteModules.allowOnly' : 'siteModules.deny')}</Tag> },
          { key: 'referers', title: t('siteModules.referers'), render: (_, r) => r.referers.join(', ') || '—' },
          { key: 'empty', title: t('siteModules.emptyReferer'), render: (_, r) => (r.empty ? '✓' : '—') },
          { key: 'memo', title: t('siteModules.memo'), dataIndex: 'memo' },
          { key: 'actions', title: t('sites.actions'), render: (_, r) => (editable ? <RowActions name={r.referers[0] ?? r.type} onEdit={() => refEdit.start(r)} onRemove={() => removeRef.mutate([r.id])} /> : null) },
        ]}
      />
      <Typography.Title level={5}>{t('siteModules.antiHeader')}</Typography.Title>
      {editable ? (
        <Form<AntiHeaderInput> form={hdrForm} layout="inline" initialValues={{ operator: 'contains' }} onFinish={(v) => addHdr.mutate({ ...v, value: v.value ?? '', memo: v.memo ?? '' })} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
          <Form.Item name="name" rules={[rules.required, zodRule(headerRule.shape.name, t('validation.wrongFormat'))]}>
            <Input placeholder="User-Agent" />
          </Form.Item>
          <Form.Item name="operator">
            <Select style={{ width: 130 }} options={OPERATORS.map((o) => ({ value: o, label: t(`siteModules.${o}`) }))} />
          </Form.Item>
          <Form.Item name="value">
            <Input placeholder={t('siteModules.headerValue')} />
          </Form.Item>
          <Form.Item name="memo">
            <Input placeholder={t('siteModules.memo')} />
          </Form.Item>
          <RowEditSubmit edit={hdrEdit} pending={addHdr.isPending} />
        </Form>
      ) : null}
      <Table
        rowKey="id"
        loading={headers.isFetching}
        dataSource={headers.data ?? []}
        pagination={false}
        columns={[
          { key: 'name', title: t('siteModules.headerName'), dataIndex: 'name' },
          { key: 'operator', title: t('siteModules.match'), render: (_, h) => t(`siteModules.${h.operator as (typeof OPERATORS)[number]}`) },
          { key: 'value', title: t('siteModules.headerValue'), dataIndex: 'value' },
          { key: 'memo', title: t('siteModules.memo'), dataIndex: 'memo' },
          { key: 'actions', title: t('sites.actions'), render: (_, h) => (editable ? <RowActions name={h.name} onEdit={() => hdrEdit.start(h)} onRemove={() => removeHdr.mutate([h.id])} /> : null) },
        ]}
      />
    </Space>
  );
}

/** A domain's referer allow/deny lists and header rules; refused requests get the 929 block page at the edge. */
export function AccessRulesTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const [domainId, setDomainId] = useState<number>();
  const domains = useAllDomains(siteId);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Select
        showSearch
        optionFilterProp="label"
        style={{ minWidth: 280 }}
        placeholder={t('siteModules.pickDomain')}
        value={domainId}
        onChange={setDomainId}
        options={(domains.data?.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
        data-testid="rules-domain"
      />
      {domainId ? <DomainRules key={domainId} siteId={siteId} domainId={domainId} /> : <Empty description={t('siteModules.pickDomain')} />}
    </Space>
  );
}

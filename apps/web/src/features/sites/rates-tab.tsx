import { Button, Form, Input, InputNumber, Modal, Space, type TableColumnsType } from 'antd';
import { rateInput } from '@edgekeep/contract/schemas/site-settings';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { useFormRules, zodRule } from '../../components/form-rules';
import { pageOf } from './page-of';
import { RemoveLink } from './remove-link';
import { useSiteMutation } from './use-site-mutation';
import { siteKeys, siteOptionCalls, type Rate, type RateItem } from './queries';

function RateModal({ siteId, rule, onClose }: { siteId: number; rule?: RateItem; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const save = useSiteMutation({
    fn: (v: Rate) => siteOptionCalls.saveRate(siteId, v, rule?.id),
    success: rule ? 'updateSuccess' : 'createSuccess',
    refresh: [siteKeys.settings(siteId)],
    done: onClose,
  });
  const [form] = Form.useForm();
  return (
    <Modal open title={t(rule ? 'siteOptions.editRate' : 'siteOptions.addRate')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={save.isPending}>
      <Form form={form} layout="vertical" requiredMark={false} initialValues={rule ?? { rate: 512 }} onFinish={(v) => save.mutate(v)} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        <Form.Item name="url" label={t('siteOptions.rateUrl')} extra={t('cache.urlsHint')} rules={[rules.required, zodRule(rateInput.shape.url, t('validation.wrongFormat'))]}>
          <Input placeholder="https://www.example.com/downloads/" data-testid="rate-url" />
        </Form.Item>
        <Form.Item name="rate" label={t('siteOptions.rate')} extra={t('siteOptions.rateHint')} rules={[rules.required]}>
          <InputNumber min={1} max={10_000_000} precision={0} addonAfter="K/s" style={{ width: 220 }} data-testid="rate-value" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Rate rules: answers under a URL prefix are sent no faster than their rate (K/s). */
export function RatesTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const editable = useCan()('sites.edit');
  const [editing, setEditing] = useState<RateItem | 'new'>();
  const remove = useSiteMutation({ fn: (ids: number[]) => siteOptionCalls.removeRates(siteId, ids), success: 'removeSuccess', refresh: [siteKeys.settings(siteId)] });
  const columns: TableColumnsType<RateItem> = [
    { key: 'url', title: t('siteOptions.rateUrl'), dataIndex: 'url' },
    { key: 'rate', title: t('siteOptions.rate'), render: (_, r) => `${r.rate} K/s` },
    {
      key: 'actions',
      title: t('sites.actions'),
      render: (_, r) =>
        editable ? (
          <Space>
            <Button size="small" type="link" onClick={() => setEditing(r)}>
              {t('sites.edit')}
            </Button>
            <RemoveLink name={r.url} onConfirm={() => remove.mutate([r.id])} />
          </Space>
        ) : null,
    },
  ];
  return (
    <>
      <DataTable<RateItem>
        queryKey={siteKeys.rates(siteId)}
        fetch={async (query) => pageOf((await siteOptionCalls.settings(siteId)).rates, query)}
        columns={columns}
        rowKey="id"
        toolbar={
          editable ? (
            <Button type="primary" onClick={() => setEditing('new')}>
              {t('siteOptions.addRate')}
            </Button>
          ) : null
        }
      />
      {editing ? <RateModal siteId={siteId} rule={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} /> : null}
    </>
  );
}

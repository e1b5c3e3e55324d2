import { Button, Form, Input, Modal, Select, Space, Typography, type TableColumnsType } from 'antd';
import { edge } from '@edgekeep/contract';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';
import { formatDate } from '../../lib/dates';
import { RemoveLink } from '../sites/remove-link';

/** Spec §4: show content, URL redirect, JavaScript. */
export const ERROR_PAGE_TYPE_LABELS = { content: 'typeContent', redirect: 'typeRedirect', js: 'typeJs' } as const;

/** An error page as the lists answer it (the status as a number). */
type Shown = { status: number; type: edge.ErrorPage['type']; body: string };
type Listed = Shown & { id: number; updatedAt: string };

/** A redirect's URL is kept without the spaces around it. */
const trimmed = (v: edge.ErrorPage): edge.ErrorPage => ({ ...v, body: v.type === 'redirect' ? v.body.trim() : v.body });

/**
 * Adds or edits an error page (a site's own, or a client's default): status, type and body, checked by the
 * contract's rule for error pages. `testId` names the status and body fields for the browser tests.
 */
export function ErrorPageFormModal({ page, saving, onSave, onClose, testId }: { page?: Shown; saving: boolean; onSave: (page: edge.ErrorPage) => void; onClose: () => void; testId: string }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<edge.ErrorPage>();
  const type = Form.useWatch('type', form) ?? page?.type ?? 'content';
  const pageRule = {
    validator: (_: unknown, body?: string) =>
      !body || edge.errorPage.safeParse(trimmed({ status: 400, type, body })).success ? Promise.resolve() : Promise.reject(new Error(t('validation.wrongFormat'))),
  };
  return (
    <Modal open width={720} title={t(page ? 'errorPages.edit' : 'errorPages.add')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={saving}>
      <Form<edge.ErrorPage>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={page ? { status: page.status, type: page.type, body: page.body } : { type: 'content' }}
        onFinish={(v) => onSave(trimmed(v))}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
      >
        <Form.Item name="status" label={t('errorPages.status')} rules={[rules.required]}>
          <Select style={{ width: 160 }} options={edge.ERROR_PAGE_STATUSES.map((s) => ({ value: s, label: String(s) }))} data-testid={`${testId}-status`} />
        </Form.Item>
        <Form.Item name="type" label={t('errorPages.type')}>
          <Select style={{ width: 200 }} options={Object.entries(ERROR_PAGE_TYPE_LABELS).map(([value, label]) => ({ value, label: t(`errorPages.${label}`) }))} />
        </Form.Item>
        <Form.Item name="body" label={t(type === 'redirect' ? 'errorPages.bodyRedirect' : 'errorPages.body')} rules={[rules.required, pageRule]}>
          {type === 'redirect' ? <Input placeholder="https://www.example.com/sorry" /> : <Input.TextArea rows={8} style={{ fontFamily: 'monospace' }} data-testid={`${testId}-body`} />}
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The columns of an error page list; the actions only for those who may change them. */
export function errorPageColumns<R extends Listed>({ t, editable, onEdit, onRemove }: { t: TFunction; editable: boolean; onEdit: (page: R) => void; onRemove: (page: R) => void }): TableColumnsType<R> {
  return [
    { key: 'status', title: t('errorPages.status'), dataIndex: 'status' },
    { key: 'type', title: t('errorPages.type'), render: (_, p) => t(`errorPages.${ERROR_PAGE_TYPE_LABELS[p.type]}`) },
    {
      key: 'body',
      title: t('errorPages.body'),
      render: (_, p) => (
        <Typography.Text ellipsis style={{ maxWidth: 420 }} code>
          {p.body}
        </Typography.Text>
      ),
    },
    { key: 'updatedAt', title: t('sites.updatedAt'), render: (_, p) => formatDate(p.updatedAt) },
    {
      key: 'actions',
      title: t('common.actions'),
      render: (_, p) =>
        editable ? (
          <Space>
            <Button size="small" type="link" onClick={() => onEdit(p)}>
              {t('common.edit')}
            </Button>
            <RemoveLink name={p.status} onConfirm={() => onRemove(p)} />
          </Space>
        ) : null,
    },
  ];
}

import { Form, Input, Modal, Select } from 'antd';
import { edge } from '@edgekeep/contract';
import { useTranslation } from 'react-i18next';
import { sitesApi, type ErrorPage, type ErrorPageItem } from '../../api/sites';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';
import { keys } from './query-keys';
import { useSiteMutation } from './use-site-mutation';

/** Spec §4: show content, URL redirect, JavaScript. */
export const ERROR_PAGE_TYPE_LABELS = { content: 'typeContent', redirect: 'typeRedirect', js: 'typeJs' } as const;
const REDIRECT_URL = /^https?:\/\/[^\s"'$\\{};]+$/;

export function ErrorPageModal({ siteId, page, onClose }: { siteId: number; page?: ErrorPageItem; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<ErrorPage>();
  const type = Form.useWatch('type', form) ?? page?.type ?? 'content';
  const save = useSiteMutation({
    fn: (p: ErrorPage) => (page ? sitesApi.updateErrorPage(siteId, { ...p, id: page.id }) : sitesApi.createErrorPage(siteId, p)),
    success: page ? 'updateSuccess' : 'createSuccess',
    refresh: [keys.errorPages(siteId)],
    done: onClose,
  });
  const urlRule = {
    validator: (_: unknown, v?: string) =>
      type !== 'redirect' || !v || REDIRECT_URL.test(v.trim()) ? Promise.resolve() : Promise.reject(new Error(t('validation.wrongFormat'))),
  };
  return (
    <Modal open width={720} title={t(page ? 'errorPages.edit' : 'errorPages.add')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={save.isPending}>
      <Form<ErrorPage>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={page ? { status: page.status, type: page.type, body: page.body } : { type: 'content' }}
        onFinish={(v) => save.mutate({ ...v, body: v.type === 'redirect' ? v.body.trim() : v.body })}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
      >
        <Form.Item name="status" label={t('errorPages.status')} rules={[rules.required]}>
          <Select style={{ width: 160 }} options={edge.ERROR_PAGE_STATUSES.map((s) => ({ value: s, label: String(s) }))} data-testid="error-page-status" />
        </Form.Item>
        <Form.Item name="type" label={t('errorPages.type')}>
          <Select
            style={{ width: 200 }}
            options={Object.entries(ERROR_PAGE_TYPE_LABELS).map(([value, label]) => ({ value, label: t(`errorPages.${label}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="body"
          label={t(type === 'redirect' ? 'errorPages.bodyRedirect' : 'errorPages.body')}
          rules={[rules.required, urlRule]}
        >
          {type === 'redirect' ? <Input placeholder="https://www.example.com/sorry" /> : <Input.TextArea rows={8} style={{ fontFamily: 'monospace' }} />}
        </Form.Item>
      </Form>
    </Modal>
  );
}

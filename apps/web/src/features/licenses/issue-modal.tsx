import { useMutation } from '@tanstack/react-query';
import { Form, Modal, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { licenseCalls, refreshLicenses, type License } from './queries';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';
import { ClientSelect } from './client-select';

/** Issues an online license to a root client; the client's previous license stops counting. */
export function IssueModal({ license, onClose, onIssued }: { license?: License; onClose: () => void; onIssued: (l: License) => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<{ clientID: number }>();
  useEffect(() => {
    if (license) form.setFieldsValue({ clientID: license.clientID ?? undefined });
  }, [license, form]);
  const issue = useMutation({
    mutationFn: (clientID: number) => licenseCalls.issue({ id: license!.id, clientID }),
    onSuccess: (issued) => {
      toast.success(t('licenseMessage.set'));
      void refreshLicenses();
      onIssued(issued);
    },
  });
  return (
    <Modal
      open={!!license}
      title={t('licenses.issueTitle', { name: license?.name ?? '' })}
      okText={t('licenses.issue')}
      confirmLoading={issue.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      forceRender
    >
      <Typography.Paragraph type="secondary">{t('licenses.issueHint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(v) => issue.mutate(v.clientID)}>
        <Form.Item name="clientID" label={t('licenses.client')} rules={[rules.required]}>
          <ClientSelect testId="issue-client" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

import { domainSchemas } from '@edgekeep/contract';
import { Form, Input, Modal, Typography, type FormRule } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { queryClient } from '../../app/query-client';
import { useFormRules } from '../../components/form-rules';
import { siteKeys } from '../sites/queries';
import { domainCalls } from './queries';

type Fields = { oldHost: string; newHost: string };

/**
 * Replaces one origin host (an IP or a name) by another on the chosen domains, or on every domain of the site when
 * `ids` is absent; the toast says how many origins changed.
 */
export function ReplaceOriginModal({ siteId, ids, onClose, onDone }: { siteId: number; ids?: number[]; onClose: () => void; onDone?: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Fields>();
  const host: FormRule = {
    validator: (_, v) =>
      !v || domainSchemas.upstreamInput.shape.host.safeParse(String(v).trim()).success ? Promise.resolve() : Promise.reject(new Error(t('validation.wrongFormat'))),
  };
  const replace = useMutation({
    mutationFn: async (v: Fields) => {
      const targets = ids ?? (await domainCalls.metaDomains(siteId)).map((d) => d.id);
      if (!targets.length) return { changed: 0 };
      return domainCalls.replaceOriginHost(siteId, { ids: targets, oldHost: v.oldHost.trim(), newHost: v.newHost.trim() });
    },
    onSuccess: async ({ changed }) => {
      toast.success(t('domainSettings.originsReplaced', { count: changed }));
      await queryClient.invalidateQueries({ queryKey: siteKeys.domains(siteId) });
      onDone?.();
      onClose();
    },
  });
  return (
    <Modal open title={t('domainSettings.replaceOrigin')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={replace.isPending}>
      <Typography.Paragraph type="secondary">
        {ids ? t('domainSettings.replaceOriginChosen', { count: ids.length }) : t('domainSettings.replaceOriginAll')}
      </Typography.Paragraph>
      <Form<Fields> form={form} layout="vertical" requiredMark={false} onFinish={(v) => replace.mutate(v)}>
        <Form.Item name="oldHost" label={t('domainSettings.oldHost')} rules={[rules.required, host]}>
          <Input placeholder="203.0.113.10" data-testid="old-host" />
        </Form.Item>
        <Form.Item name="newHost" label={t('domainSettings.newHost')} rules={[rules.required, host]}>
          <Input placeholder="203.0.113.20" data-testid="new-host" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

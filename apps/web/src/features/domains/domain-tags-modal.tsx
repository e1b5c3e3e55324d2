import { useQuery } from '@tanstack/react-query';
import { Form, Modal, Select } from 'antd';
import { domainTagsBody } from '@edgekeep/contract/schemas/domain-settings';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../components/form-rules';
import { useSiteMutation } from '../sites/use-site-mutation';
import { siteKeys } from '../sites/queries';
import { domainCalls, domainKeys } from './queries';

/** Sets the tags of the chosen domains (the server keeps them sorted alphabetically). */
export function DomainTagsModal({ siteId, ids, initial = [], onClose, onDone }: { siteId: number; ids: number[]; initial?: string[]; onClose: () => void; onDone?: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ tags: string[] }>();
  const known = useQuery({ queryKey: domainKeys.tags(siteId), queryFn: () => domainCalls.tags(siteId) });
  const save = useSiteMutation({
    fn: (tags: string[]) => domainCalls.setTags(siteId, ids, tags),
    success: 'updateTagsSuccess',
    refresh: [siteKeys.domains(siteId)],
    done: () => {
      onDone?.();
      onClose();
    },
  });
  return (
    <Modal open title={t('domainSettings.editTags')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={save.isPending}>
      <Form form={form} layout="vertical" initialValues={{ tags: initial }} onFinish={(v) => save.mutate(v.tags)}>
        <Form.Item
          name="tags"
          label={t('sites.tags')}
          extra={t('sites.tagsHint')}
          rules={[zodRule(domainTagsBody.shape.tags, t('validation.wrongFormat'))]}
        >
          <Select mode="tags" aria-label="domain tags" options={(known.data ?? []).map((x) => ({ value: x, label: x }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

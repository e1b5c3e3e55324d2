import { useQuery } from '@tanstack/react-query';
import { Form, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { keys } from '../sites/query-keys';
import { useSiteMutation } from '../sites/use-site-mutation';
import { domainsApi } from './api';

/** Sets the tags of the chosen domains (the server keeps them sorted alphabetically). */
export function DomainTagsModal({ siteId, ids, initial = [], onClose, onDone }: { siteId: number; ids: number[]; initial?: string[]; onClose: () => void; onDone?: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ tags: string[] }>();
  const known = useQuery({ queryKey: keys.domainTags(siteId), queryFn: () => domainsApi.tags(siteId) });
  const save = useSiteMutation({
    fn: (tags: string[]) => domainsApi.setTags(siteId, ids, tags),
    success: 'updateTagsSuccess',
    refresh: [keys.domains(siteId)],
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
          rules={[{ validator: (_, v: string[] = []) => (v.every((x) => x.trim().length > 0 && x.length <= 64) && v.length <= 50 ? Promise.resolve() : Promise.reject(new Error(t('validation.wrongFormat')))) }]}
        >
          <Select mode="tags" aria-label="domain tags" options={(known.data ?? []).map((x) => ({ value: x, label: x }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

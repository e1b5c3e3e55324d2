import { Form, Modal, Select } from 'antd';
import { siteTagsBody } from '@edgekeep/contract/schemas/sites';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../components/form-rules';
import { useSiteMutation } from './use-site-mutation';
import { siteCalls, siteKeys, type Site } from './queries';

/** Sets a site's tags (PUT user/site/{id}/tags); the list and the tag filter refresh. */
export function TagsEditor({ site, onClose }: { site: Site; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ tags: string[] }>();
  const save = useSiteMutation({
    fn: (tags: string[]) => siteCalls.setTags(site.id, tags),
    success: 'updateTagsSuccess',
    refresh: [siteKeys.sites, siteKeys.tags],
    done: onClose,
  });
  return (
    <Modal open title={`${t('sites.editTags')}: ${site.name}`} onCancel={onClose} onOk={() => form.submit()} confirmLoading={save.isPending}>
      <Form form={form} layout="vertical" initialValues={{ tags: site.tags }} onFinish={(v) => save.mutate(v.tags.map((tag) => tag.trim()))}>
        <Form.Item name="tags" label={t('sites.tags')} extra={t('sites.tagsHint')} rules={[zodRule(siteTagsBody.shape.tags, t('validation.wrongFormat'))]}>
          <Select mode="tags" open={false} suffixIcon={null} data-testid="site-tags-input" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

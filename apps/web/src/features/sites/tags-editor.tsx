import { Form, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { sitesApi, type Site } from '../../api/sites';
import { keys } from './query-keys';
import { useSiteMutation } from './use-site-mutation';

const TAG_MAX = 64;
const TAGS_MAX = 50;

/** Sets a site's tags (PUT user/site/{id}/tags); the list and the tag filter refresh. */
export function TagsEditor({ site, onClose }: { site: Site; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ tags: string[] }>();
  const save = useSiteMutation({
    fn: (tags: string[]) => sitesApi.setTags(site.id, tags),
    success: 'updateTagsSuccess',
    refresh: [keys.sites, keys.tags],
    done: onClose,
  });
  const valid = (tags: string[] = []) =>
    tags.length <= TAGS_MAX && tags.every((tag) => tag.trim().length > 0 && tag.length <= TAG_MAX)
      ? Promise.resolve()
      : Promise.reject(new Error(t('validation.wrongFormat')));
  return (
    <Modal open title={`${t('sites.editTags')}: ${site.name}`} onCancel={onClose} onOk={() => form.submit()} confirmLoading={save.isPending}>
      <Form form={form} layout="vertical" initialValues={{ tags: site.tags }} onFinish={(v) => save.mutate(v.tags.map((tag) => tag.trim()))}>
        <Form.Item name="tags" label={t('sites.tags')} extra={t('sites.tagsHint')} rules={[{ validator: (_, v) => valid(v) }]}>
          <Select mode="tags" open={false} suffixIcon={null} data-testid="site-tags-input" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

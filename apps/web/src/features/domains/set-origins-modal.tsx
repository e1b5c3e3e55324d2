import { App, Button, Form, Modal, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ORIGIN_DEFAULTS, OriginFields } from '../sites/origin-fields';
import { useSiteMutation } from '../sites/use-site-mutation';
import { siteKeys, type UpstreamInput } from '../sites/queries';
import { domainCalls } from './queries';

type Fields = { upstreams: UpstreamInput[] };

/** Gives the chosen domains the same origins, replacing theirs: asks first, since the old origins are dropped. */
export function SetOriginsModal({ siteId, ids, onClose, onDone }: { siteId: number; ids: number[]; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [form] = Form.useForm<Fields>();
  const save = useSiteMutation({
    fn: (upstreams: UpstreamInput[]) => domainCalls.setOrigins(siteId, { ids, upstreams }),
    success: 'updateSuccess',
    refresh: [siteKeys.domains(siteId)],
    done: () => {
      onDone();
      onClose();
    },
  });
  const confirm = ({ upstreams }: Fields) => {
    const list = upstreams.map((u) => ({ ...u, host: u.host.trim() }));
    modal.confirm({
      title: t('domainSettings.setOriginsConfirm', { count: ids.length }),
      okText: t('common.yes'),
      cancelText: t('common.no'),
      onOk: () => save.mutate(list),
    });
  };
  return (
    <Modal open width={720} title={t('domainSettings.setOrigins')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={save.isPending}>
      <Typography.Paragraph type="secondary">{t('domainSettings.setOriginsHint', { count: ids.length })}</Typography.Paragraph>
      <Form<Fields> form={form} layout="vertical" requiredMark={false} initialValues={{ upstreams: [{ host: '', ...ORIGIN_DEFAULTS }] }} onFinish={confirm}>
        <Form.List name="upstreams">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <div key={field.key} style={{ display: 'flex', gap: 8, alignItems: 'flex-start' }}>
                  <div style={{ flex: 1 }}>
                    <OriginFields name={[field.name]} />
                  </div>
                  {fields.length > 1 ? <Button type="text" icon={<DeleteOutlined />} aria-label={t('sites.remove')} onClick={() => remove(field.name)} style={{ marginTop: 30 }} /> : null}
                </div>
              ))}
              <Button icon={<PlusOutlined />} onClick={() => add({ host: '', ...ORIGIN_DEFAULTS })}>
                {t('domains.addOrigin')}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}

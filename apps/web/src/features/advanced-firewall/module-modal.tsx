import { Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';
import { useAllDomains } from '../sites/queries';
import { useSiteMutation } from '../sites/use-site-mutation';
import { aclKeys, wafAcl, type AclModule } from './queries';

/** Adds or renames a module. */
export function ModuleModal({ siteId, module, onClose, onCreated }: { siteId: number; module?: AclModule; onClose: () => void; onCreated: (id: number) => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<{ name: string; memo: string }>();
  const save = useSiteMutation({
    fn: async (v: { name: string; memo: string }) =>
      module ? [await wafAcl.updateModule(siteId, { id: module.id, ...v })] : wafAcl.createModule(siteId, v),
    success: module ? 'updateSuccess' : 'createSuccess',
    refresh: [aclKeys.modules(siteId)],
    done: (saved) => {
      if (!module && saved[0]) onCreated(saved[0].id);
      onClose();
    },
  });
  return (
    <Modal open title={t(module ? 'advancedFirewall.editModule' : 'advancedFirewall.addModule')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={save.isPending}>
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ name: module?.name ?? '', memo: module?.memo ?? '' }}
        onFinish={(v) => save.mutate({ name: v.name.trim(), memo: v.memo ?? '' })}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
      >
        <Form.Item name="name" label={t('advancedFirewall.moduleName')} rules={[rules.required, { max: 256 }]}>
          <Input data-testid="module-name" />
        </Form.Item>
        <Form.Item name="memo" label={t('advancedFirewall.memo')} rules={[{ max: 256 }]}>
          <Input />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Puts the module on domains of the site; domains it leaves lose it. */
export function AssignModal({ siteId, module, onClose }: { siteId: number; module: AclModule; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ domainIDs: number[] }>();
  const domains = useAllDomains(siteId);
  const before = module.domains.map((d) => d.id);
  const save = useSiteMutation({
    fn: async ({ domainIDs }: { domainIDs: number[] }) => {
      const dropped = before.filter((id) => !domainIDs.includes(id));
      if (domainIDs.length) await wafAcl.assign(siteId, domainIDs, module.id);
      if (dropped.length) await wafAcl.assign(siteId, dropped, 0);
    },
    success: 'updateSuccess',
    refresh: [aclKeys.modules(siteId)],
    done: onClose,
  });
  return (
    <Modal open title={t('advancedFirewall.assignTitle', { name: module.name })} onCancel={onClose} onOk={() => form.submit()} confirmLoading={save.isPending}>
      <Form form={form} layout="vertical" initialValues={{ domainIDs: before }} onFinish={(v) => save.mutate({ domainIDs: v.domainIDs ?? [] })}>
        <Form.Item name="domainIDs" label={t('advancedFirewall.domains')} extra={t('advancedFirewall.assignHint')}>
          <Select
            mode="multiple"
            loading={domains.isLoading}
            optionFilterProp="label"
            options={(domains.data?.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
            data-testid="assign-domains"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

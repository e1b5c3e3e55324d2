import { Form, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';
import { useAllDomains } from '../sites/queries';
import { modules, siteModuleKeys, type AssignKind } from './queries';
import { useModuleMutation } from './use-module-mutation';

type Values = { domainIDs: number[]; moduleID: number };

/** Assigns a module of a kind to domains; the leading None option (id and value 0) unassigns. */
export function AssignModal(o: { siteId: number; kind: AssignKind; modules: { id: number; name: string }[]; moduleId?: number; overrideCode?: number; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Values>();
  const domains = useAllDomains(o.siteId);
  const save = useModuleMutation({
    fn: (v: Values) => modules.assign(o.siteId, o.kind, v.domainIDs, v.moduleID),
    success: 'updateSuccess',
    refresh: [siteModuleKeys.list(o.siteId, o.kind)],
    done: o.onClose,
    overrideCode: o.overrideCode,
  });
  return (
    <Modal open title={t('siteModules.assign')} onCancel={o.onClose} onOk={() => form.submit()} confirmLoading={save.isPending}>
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ moduleID: o.moduleId ?? 0, domainIDs: [] }}
        onFinish={(v) => save.mutate(v)}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
      >
        <Form.Item name="domainIDs" label={t('siteModules.domains')} rules={[rules.required]}>
          <Select
            mode="multiple"
            showSearch
            optionFilterProp="label"
            loading={domains.isFetching}
            options={(domains.data?.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
            data-testid="assign-domains"
          />
        </Form.Item>
        <Form.Item name="moduleID" label={t('siteModules.module')}>
          <Select options={[{ value: 0, label: t('siteModules.none') }, ...o.modules.map((m) => ({ value: m.id, label: m.name }))]} data-testid="assign-module" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

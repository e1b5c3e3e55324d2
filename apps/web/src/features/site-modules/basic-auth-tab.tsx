import { userBody } from '@edgekeep/contract/schemas/basic-auth';
import { Button, Drawer, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { useFormRules, zodRule } from '../../components/form-rules';
import { RemoveLink } from '../sites/remove-link';
import { basicAuth, siteModuleKeys as keys, useAuthMetaGroups, useAuthUsers, type AuthGroup, type AuthRule, type AuthRuleInput } from './queries';
import { NameModal } from './name-modal';
import { useModuleMutation } from './use-module-mutation';

function UsersPanel({ siteId, group }: { siteId: number; group: AuthGroup }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const editable = useCan()('sites.edit');
  const [form] = Form.useForm<{ user: string; password: string }>();
  const users = useAuthUsers(siteId, group.id);
  const refresh = [keys.authUsers(siteId, group.id), keys.authGroups(siteId)];
  const add = useModuleMutation({ fn: (v: { user: string; password: string }) => basicAuth.addUser(siteId, group.id, v), success: 'createSuccess', refresh, done: () => form.resetFields() });
  const remove = useModuleMutation({ fn: (ids: number[]) => basicAuth.removeUsers(siteId, group.id, ids), success: 'removeSuccess', refresh });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {editable ? (
        <Form form={form} layout="inline" onFinish={(v) => add.mutate(v)} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
          <Form.Item name="user" rules={[rules.required, zodRule(userBody.shape.user, t('validation.wrongFormat'))]}>
            <Input placeholder={t('siteModules.user')} />
          </Form.Item>
          <Form.Item name="password" rules={[rules.required, zodRule(userBody.shape.password, t('validation.passwordLength', { min: 8 }))]}>
            <Input.Password placeholder={t('siteModules.password')} autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={add.isPending}>
            {t('siteModules.add')}
          </Button>
        </Form>
      ) : null}
      <Table
        rowKey="id"
        loading={users.isFetching}
        dataSource={users.data ?? []}
        pagination={false}
        columns={[
          { key: 'user', title: t('siteModules.user'), dataIndex: 'user' },
          { key: 'actions', title: t('sites.actions'), render: (_, u) => (editable ? <RemoveLink name={u.user} onConfirm={() => remove.mutate([u.id])} /> : null) },
        ]}
      />
    </Space>
  );
}

function RuleModal({ siteId, onClose }: { siteId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<AuthRuleInput>();
  const groups = useAuthMetaGroups(siteId);
  const save = useModuleMutation({ fn: (v: AuthRuleInput) => basicAuth.createRule(siteId, v), success: 'createSuccess', refresh: [keys.authRules(siteId), keys.authGroups(siteId)], done: onClose });
  return (
    <Modal open title={t('siteModules.add')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={save.isPending}>
      <Form<AuthRuleInput> form={form} layout="vertical" requiredMark={false} initialValues={{ match: 'prefix', realm: 'Restricted' }} onFinish={(v) => save.mutate(v)} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        <Form.Item name="match" label={t('siteModules.match')}>
          <Select options={(['prefix', 'regex'] as const).map((m) => ({ value: m, label: t(`siteModules.${m}`) }))} />
        </Form.Item>
        <Form.Item name="pattern" label={t('siteModules.path')} rules={[rules.required]}>
          <Input placeholder="/admin" />
        </Form.Item>
        <Form.Item name="realm" label={t('siteModules.realm')}>
          <Input />
        </Form.Item>
        <Form.Item name="groupIDs" label={t('siteModules.groups')} rules={[rules.required]}>
          <Select mode="multiple" options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Basic auth of the site: groups of users (passwords never shown), and rules binding paths to groups. */
export function BasicAuthTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const editable = useCan()('sites.edit');
  const [naming, setNaming] = useState<AuthGroup | 'new'>();
  const [open, setOpen] = useState<AuthGroup>();
  const [addingRule, setAddingRule] = useState(false);
  const saveGroup = useModuleMutation({
    fn: (name: string) => basicAuth.saveGroup(siteId, name, naming === 'new' ? undefined : naming?.id),
    success: naming === 'new' ? 'createSuccess' : 'updateSuccess',
    refresh: [keys.authGroups(siteId), keys.authRules(siteId)],
    done: () => setNaming(undefined),
  });
  const removeGroup = useModuleMutation({ fn: (ids: number[]) => basicAuth.removeGroups(siteId, ids), success: 'removeSuccess', refresh: [keys.authGroups(siteId)] });
  const removeRule = useModuleMutation({ fn: (ids: number[]) => basicAuth.removeRules(siteId, ids), success: 'removeSuccess', refresh: [keys.authRules(siteId), keys.authGroups(siteId)] });
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="large">
      <Typography.Title level={5}>{t('siteModules.authRules')}</Typography.Title>
      <DataTable<AuthRule>
        scope="rules"
        queryKey={keys.authRules(siteId)}
        fetch={(q) => basicAuth.rules(siteId, q)}
        rowKey="id"
        toolbar={editable ? <Button type="primary" onClick={() => setAddingRule(true)}>{t('siteModules.add')}</Button> : null}
        columns={[
          { key: 'match', title: t('siteModules.match'), render: (_, r) => t(`siteModules.${r.match}`) },
          { key: 'pattern', title: t('siteModules.path'), render: (_, r) => <Typography.Text code>{r.pattern}</Typography.Text> },
          { key: 'realm', title: t('siteModules.realm'), dataIndex: 'realm' },
          { key: 'groups', title: t('siteModules.groups'), render: (_, r) => r.groups.map((g) => <Tag key={g.id}>{g.name}</Tag>) },
          { key: 'actions', title: t('sites.actions'), render: (_, r) => (editable ? <RemoveLink name={r.pattern} onConfirm={() => removeRule.mutate([r.id])} /> : null) },
        ]}
      />
      <Typography.Title level={5}>{t('siteModules.groups')}</Typography.Title>
      <DataTable<AuthGroup>
        scope="groups"
        queryKey={keys.authGroups(siteId)}
        fetch={(q) => basicAuth.groups(siteId, q)}
        rowKey="id"
        toolbar={editable ? <Button onClick={() => setNaming('new')}>{t('siteModules.add')}</Button> : null}
        columns={[
          { key: 'name', title: t('siteModules.name'), dataIndex: 'name' },
          { key: 'users', title: t('siteModules.users'), dataIndex: 'users' },
          { key: 'rules', title: t('siteModules.count'), dataIndex: 'rules' },
          {
            key: 'actions',
            title: t('sites.actions'),
            render: (_, g) => (
              <Space size={0}>
                <Button size="small" type="link" onClick={() => setOpen(g)}>
                  {t('siteModules.users')}
                </Button>
                {editable ? (
                  <>
                    <Button size="small" type="link" onClick={() => setNaming(g)}>
                      {t('sites.edit')}
                    </Button>
                    <RemoveLink name={g.name} onConfirm={() => removeGroup.mutate([g.id])} />
                  </>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      {naming ? <NameModal title={t(naming === 'new' ? 'siteModules.add' : 'sites.edit')} name={naming === 'new' ? undefined : naming.name} pending={saveGroup.isPending} onSave={(n) => saveGroup.mutate(n)} onClose={() => setNaming(undefined)} /> : null}
      {addingRule ? <RuleModal siteId={siteId} onClose={() => setAddingRule(false)} /> : null}
      <Drawer open={!!open} width={640} title={open?.name} onClose={() => setOpen(undefined)} destroyOnHidden>
        {open ? <UsersPanel siteId={siteId} group={open} /> : null}
      </Drawer>
    </Space>
  );
}

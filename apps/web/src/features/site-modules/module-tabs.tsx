import { Modal, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AccessRulesTab } from './access-rules-tab';
import { BasicAuthTab } from './basic-auth-tab';
import { modules, siteModuleKeys, type CorsItem, type ModuleItem, type TokenAuthItem, type WafItem } from './queries';
import { CorsModal, TokenAuthModal, WafModal } from './forms';
import { HEADER_OVERRIDE, HeadersPanel } from './headers-panel';
import { ModuleTab } from './module-tab';
import { NameModal } from './name-modal';
import { RedirectsPanel } from './redirects-panel';
import { RewritePanel } from './rewrite-panel';
import { TokenPanel } from './token-panel';
import { useModuleMutation } from './use-module-mutation';

type Named = 'customHeader' | 'urlRedirect' | 'proxyRewrite';
const NAMED = {
  customHeader: {
    list: modules.customHeaders,
    save: (siteId: number, name: string, id?: number) => modules.saveCustomHeader(siteId, { id, name }),
    remove: modules.removeCustomHeaders,
  },
  urlRedirect: {
    list: modules.urlRedirects,
    save: (siteId: number, name: string, id?: number) => (id ? modules.renameUrlRedirect(siteId, id, name) : modules.createUrlRedirect(siteId, name)),
    remove: modules.removeUrlRedirects,
  },
  proxyRewrite: {
    list: modules.proxyRewrites,
    save: (siteId: number, name: string, id?: number) => (id ? modules.renameProxyRewrite(siteId, id, name) : modules.createProxyRewrite(siteId, name)),
    remove: modules.removeProxyRewrites,
  },
};

function NamedEditor({ siteId, kind, item, onClose }: { siteId: number; kind: Named; item?: ModuleItem; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useModuleMutation({
    fn: (name: string) => NAMED[kind].save(siteId, name, item?.id),
    success: item ? 'updateSuccess' : 'createSuccess',
    refresh: [siteModuleKeys.list(siteId, kind)],
    done: onClose,
    overrideCode: kind === 'customHeader' ? HEADER_OVERRIDE : undefined,
  });
  return <NameModal title={t(item ? 'sites.edit' : 'siteModules.add')} name={item?.name} pending={save.isPending} onSave={(n) => save.mutate(n)} onClose={onClose} />;
}

function NamedTab({ siteId, kind }: { siteId: number; kind: Named }) {
  const { t } = useTranslation();
  const panel = (m: ModuleItem) =>
    kind === 'customHeader' ? <HeadersPanel siteId={siteId} moduleId={m.id} /> : kind === 'urlRedirect' ? <RedirectsPanel siteId={siteId} moduleId={m.id} /> : <RewritePanel siteId={siteId} moduleId={m.id} />;
  return (
    <ModuleTab<ModuleItem>
      siteId={siteId}
      kind={kind}
      fetch={(q) => NAMED[kind].list(siteId, q)}
      columns={[{ key: 'count', title: t('siteModules.count'), dataIndex: 'count' }]}
      editor={(item, close) => <NamedEditor siteId={siteId} kind={kind} item={item} onClose={close} />}
      remove={(ids) => NAMED[kind].remove(siteId, ids)}
      items={panel}
      overrideCode={kind === 'customHeader' ? HEADER_OVERRIDE : undefined}
    />
  );
}

function CorsTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  return (
    <ModuleTab<CorsItem>
      siteId={siteId}
      kind="cors"
      fetch={(q) => modules.corses(siteId, q)}
      columns={[
        { key: 'allowOrigin', title: t('siteModules.allowOrigin'), dataIndex: 'allowOrigin' },
        { key: 'allowMethods', title: t('siteModules.allowMethods'), render: (_, c) => c.allowMethods.join(', ') },
        { key: 'maxAge', title: t('siteModules.maxAge'), dataIndex: 'maxAge' },
      ]}
      editor={(item, close) => <CorsModal siteId={siteId} item={item} onClose={close} />}
      remove={(ids) => modules.removeCorses(siteId, ids)}
    />
  );
}

function TokenTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const [key, setKey] = useState<string>();
  return (
    <>
      <ModuleTab<TokenAuthItem>
        siteId={siteId}
        kind="tokenAuth"
        fetch={(q) => modules.tokenAuths(siteId, q)}
        columns={[
          { key: 'scope', title: t('siteModules.scope'), render: (_, m) => <Tag>{t(m.scope === 'all' ? 'siteModules.scopeAll' : 'siteModules.scopePaths')}</Tag> },
          { key: 'expiry', title: t('siteModules.expiry'), dataIndex: 'expiry' },
          { key: 'keyHint', title: t('siteModules.customKey'), render: (_, m) => `••••${m.keyHint}` },
        ]}
        editor={(item, close) => <TokenAuthModal siteId={siteId} item={item} onClose={close} onKey={setKey} />}
        remove={(ids) => modules.removeTokenAuths(siteId, ids)}
        items={(m) => <TokenPanel siteId={siteId} module={m} />}
      />
      <Modal open={!!key} title={t('siteModules.keyShownOnce')} onOk={() => setKey(undefined)} onCancel={() => setKey(undefined)} cancelButtonProps={{ style: { display: 'none' } }}>
        <Typography.Paragraph copyable code data-testid="generated-key">
          {key}
        </Typography.Paragraph>
      </Modal>
    </>
  );
}

function WafTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  return (
    <ModuleTab<WafItem>
      siteId={siteId}
      kind="waf"
      fetch={(q) => modules.wafs(siteId, q)}
      columns={[
        { key: 'mode', title: t('siteModules.wafMode'), render: (_, w) => <Tag color={w.mode === 'block' ? 'red' : 'blue'}>{t(w.mode === 'block' ? 'siteModules.wafBlock' : 'siteModules.wafDetect')}</Tag> },
        { key: 'paranoia', title: t('siteModules.paranoia'), dataIndex: 'paranoia' },
        { key: 'excludedRules', title: t('siteModules.excludedRules'), render: (_, w) => w.excludedRules.join(', ') || '—' },
      ]}
      editor={(item, close) => <WafModal siteId={siteId} item={item} onClose={close} />}
      remove={(ids) => modules.removeWafs(siteId, ids)}
    />
  );
}

/** The module tabs of site settings (spec §3 Site modules), for a user who may see the site. */
export const moduleTabs = ({ siteId, t }: { siteId: number; t: TFunction }) => [
  { key: 'customHeader', label: t('siteModules.tabCustomHeader'), children: <NamedTab siteId={siteId} kind="customHeader" /> },
  { key: 'urlRedirect', label: t('siteModules.tabUrlRedirect'), children: <NamedTab siteId={siteId} kind="urlRedirect" /> },
  { key: 'cors', label: t('siteModules.tabCors'), children: <CorsTab siteId={siteId} /> },
  { key: 'proxyRewrite', label: t('siteModules.tabProxyRewrite'), children: <NamedTab siteId={siteId} kind="proxyRewrite" /> },
  { key: 'tokenAuth', label: t('siteModules.tabTokenAuth'), children: <TokenTab siteId={siteId} /> },
  { key: 'waf', label: t('siteModules.tabWaf'), children: <WafTab siteId={siteId} /> },
  { key: 'basicAuth', label: t('siteModules.tabBasicAuth'), children: <BasicAuthTab siteId={siteId} /> },
  { key: 'accessRules', label: t('siteModules.tabAccessRules'), children: <AccessRulesTab siteId={siteId} /> },
];

import { App, Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { clientSites, useSitesChange, type Site } from './queries';
import type { SiteAction, SiteActionKind } from './site-action-modal';

type Props = { ids: number[]; site?: Site; size?: 'small'; onOpen: (action: SiteAction) => void; onDone?: () => void };
type Confirmed = 'refreshProduct' | 'forceBackupOn' | 'forceBackupOff' | 'clearCache';

const FORMS: SiteActionKind[] = ['assignUser', 'removeUsers', 'changeProduct', 'limitations', 'expired'];
const CONFIRMED: Confirmed[] = ['refreshProduct', 'forceBackupOn', 'forceBackupOff', 'clearCache'];
const QUESTIONS = {
  refreshProduct: 'siteActions.refreshProductConfirm',
  forceBackupOn: 'siteActions.forceBackupOnConfirm',
  forceBackupOff: 'siteActions.forceBackupOffConfirm',
  clearCache: 'siteActions.clearCacheConfirm',
} as const;

/** Every site action for one site or the selected ones; those without a form ask before they run. */
export function SiteActionsMenu({ ids, site, size, onOpen, onDone }: Props) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const run = useSitesChange(
    async (kind: Confirmed) => {
      if (kind === 'clearCache') return clientSites.clearCache(ids);
      await (kind === 'refreshProduct' ? clientSites.refreshProduct(ids) : clientSites.forceBackup(ids, kind === 'forceBackupOn'));
    },
    (cleared) => {
      toast.success(cleared ? t('siteActions.cacheCleared', { count: cleared.nodes }) : t('infra.updateSuccess'));
      onDone?.();
    },
  );
  const target = site ? site.name : t('siteActions.selected', { count: ids.length });
  const confirm = (kind: Confirmed) =>
    modal.confirm({
      title: t(`siteActions.${kind}`),
      content: t(QUESTIONS[kind], { name: target }),
      okText: t('common.confirm'),
      cancelText: t('infra.cancel'),
      onOk: () => run.mutateAsync(kind),
    });
  const items: MenuProps['items'] = [
    ...FORMS.map((kind) => ({ key: kind, label: t(`siteActions.${kind}`) })),
    { type: 'divider' as const },
    ...CONFIRMED.filter((k) => !site || k !== (site.forceBackup ? 'forceBackupOn' : 'forceBackupOff')).map((kind) => ({ key: kind, label: t(`siteActions.${kind}`) })),
  ];
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if ((FORMS as string[]).includes(key)) onOpen({ kind: key as SiteActionKind, ids, site });
    else confirm(key as Confirmed);
  };
  return (
    <Dropdown menu={{ items, onClick }} disabled={ids.length === 0} trigger={['click']}>
      <Button size={size} loading={run.isPending}>
        {t('siteActions.more')}
      </Button>
    </Dropdown>
  );
}

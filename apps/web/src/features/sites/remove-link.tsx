import { Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';

/** A row's remove link: it asks before anything is removed. */
export function RemoveLink({ name, onConfirm }: { name: string | number; onConfirm: () => void }) {
  const { t } = useTranslation();
  return (
    <Popconfirm title={t('sites.confirmRemoveOne', { name })} onConfirm={onConfirm}>
      <Button size="small" type="link" danger>
        {t('sites.remove')}
      </Button>
    </Popconfirm>
  );
}

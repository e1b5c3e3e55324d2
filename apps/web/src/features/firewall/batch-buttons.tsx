import { Button, Popconfirm } from 'antd';
import type { Key } from 'react';
import { useTranslation } from 'react-i18next';

/** Enable or close the chosen rows of a firewall list. */
export function BatchButtons({ selected, clear, enable }: { selected: Key[]; clear: () => void; enable: (v: { ids: number[]; enabled: boolean }) => void }) {
  const { t } = useTranslation();
  const run = (enabled: boolean) => {
    enable({ ids: selected.map(Number), enabled });
    clear();
  };
  return (
    <>
      <Button disabled={!selected.length} onClick={() => run(true)} data-testid="batch-enable">
        {t('firewall.enableChosen', { count: selected.length })}
      </Button>
      <Popconfirm title={t('firewall.confirmClose', { count: selected.length })} disabled={!selected.length} onConfirm={() => run(false)}>
        <Button disabled={!selected.length} data-testid="batch-close">
          {t('firewall.closeChosen', { count: selected.length })}
        </Button>
      </Popconfirm>
    </>
  );
}

import { Drawer, Spin, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/use-self';
import { ZoneAnticcTab } from './zone-anticc-tab';
import { ZoneFirewallTab } from './zone-firewall-tab';
import { ZoneNginxTab } from './zone-nginx-tab';
import { ZonePortsTab } from './zone-ports-tab';
import { ZonePreheatTab } from './zone-preheat-tab';
import { ZoneProtocolTab } from './zone-protocol-tab';
import { ZoneResourceTab } from './zone-resource-tab';
import { useZoneSettings, type Zone } from './queries';
import type { ZoneTabProps } from './zone-setting-form';

const TABS = [
  ['ports', ZonePortsTab],
  ['nginx', ZoneNginxTab],
  ['firewall', ZoneFirewallTab],
  ['protocols', ZoneProtocolTab],
  ['anticc', ZoneAnticcTab],
  ['preheatCaches', ZonePreheatTab],
  ['resource', ZoneResourceTab],
] as const satisfies readonly (readonly [string, (p: ZoneTabProps) => React.ReactNode])[];

/** A zone's settings, a tab per group; each form is saved on its own. */
export function ZoneSettingsDrawer({ zone, onClose }: { zone: Zone; onClose: () => void }) {
  const { t } = useTranslation();
  const canEdit = useCan()('zones.edit');
  const settings = useZoneSettings(zone.id);
  const value = settings.data;
  return (
    <Drawer open width={860} title={t('zones.settingsTitle', { name: zone.name })} onClose={onClose} destroyOnHidden>
      {value ? (
        <Tabs
          tabPosition="left"
          items={TABS.map(([key, Tab]) => ({
            key,
            label: t(`zones.tabs.${key}`),
            children: <Tab zoneID={zone.id} value={value} canEdit={canEdit} />,
          }))}
        />
      ) : (
        <Spin />
      )}
    </Drawer>
  );
}

import { useTranslation } from 'react-i18next';
import { ORIGIN_DEFAULTS } from '../sites/origin-fields';
import { OriginListDrawer } from '../sites/origin-list-drawer';
import { portKeys, portOrigins, type Port, type PortUpstream, type PortUpstreamInput } from './queries';

/** The origins of one layer-4 port. */
export function PortOriginsDrawer({ siteId, port, editable, onClose }: { siteId: number; port: Port; editable: boolean; onClose: () => void }) {
  const { t } = useTranslation();

  return (
    <OriginListDrawer<PortUpstream, PortUpstreamInput>
      title={t('l4Ports.originsOf', { port: port.port })}
      scope="portOrigins"
      listKey={portKeys.upstreams(siteId, port.id)}
      refresh={[portKeys.list(siteId)]}
      calls={portOrigins(siteId, port.id)}
      newOrigin={{ host: '', ...ORIGIN_DEFAULTS } as PortUpstreamInput}
      editable={editable}
      onClose={onClose}
    />
  );
}

import { useTranslation } from 'react-i18next';
import { ORIGIN_DEFAULTS } from '../sites/origin-fields';
import { OriginListDrawer } from '../sites/origin-list-drawer';
import { portsApi, type Port, type PortUpstream, type PortUpstreamInput } from './api';

/** The origins of one layer-4 port. */
export function PortOriginsDrawer({ siteId, port, editable, onClose }: { siteId: number; port: Port; editable: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = [['user-site-ports', siteId]];
  return (
    <OriginListDrawer<PortUpstream, PortUpstreamInput>
      title={t('l4Ports.originsOf', { port: port.port })}
      scope="portOrigins"
      listKey={[...refresh[0], 'upstreams', port.id]}
      refresh={refresh}
      calls={{
        list: (query) => portsApi.upstreams(siteId, port.id, query),
        add: (u) => portsApi.addUpstreams(siteId, port.id, [u]),
        update: (u) => portsApi.updateUpstream(siteId, port.id, u),
        remove: (ids) => portsApi.removeUpstreams(siteId, port.id, ids),
      }}
      newOrigin={{ host: '', ...ORIGIN_DEFAULTS } as PortUpstreamInput}
      editable={editable}
      onClose={onClose}
    />
  );
}

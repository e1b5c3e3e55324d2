import type { edge } from '@edgekeep/contract';
import { l4Access, l4LimitZones, l4Target } from './stream-firewall';
import { block, lines } from './text';
import { upstream } from './upstream';

/** Layer-4 forwarding of one site: one stream server per port. */
export const renderStreamSite = ({ site }: { site: edge.SiteStructure }) =>
  lines(
    `# site ${site.id}`,
    l4LimitZones({ site }),
    ...site.l4Ports.map((l4) => {
      const name = `ek_l4_${l4.port}`;
      const target = l4Target({ site, port: l4.port, upstream: name });
      return lines(
        upstream({ name, origins: l4.origins }),
        target.map,
        block({
          head: 'server',
          body: lines(`listen ${l4.port};`, l4Access({ site, port: l4.port }), `proxy_pass ${target.proxyPass};`),
        }),
      );
    }),
  ) + '\n';

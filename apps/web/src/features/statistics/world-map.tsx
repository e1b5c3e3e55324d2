import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries from 'i18n-iso-countries';
import atlas from 'world-atlas/countries-110m.json';
import EChart, { echarts, type ChartProps } from './echart';

/** Natural Earth's countries (world-atlas), each named by its ISO 3166-1 alpha-2 code, as the access lines name them. */
function registerWorld() {
  if (echarts.getMap('world')) return;
  const topology = atlas as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
  const world = feature(topology, topology.objects.countries);
  for (const f of world.features) f.properties = { ...f.properties, name: countries.numericToAlpha2(String(f.id)) ?? f.properties.name };
  echarts.registerMap('world', world as unknown as Parameters<typeof echarts.registerMap>[1]);
}

/** The world map chart: the option's map series use `map: 'world'` with alpha-2 names. */
export default function WorldMap(props: ChartProps) {
  registerWorld();
  return <EChart {...props} />;
}

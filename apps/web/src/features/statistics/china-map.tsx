import china from '@svg-maps/china';
import EChart, { echarts, type ChartProps } from './echart';

/**
 * The map's provinces named as the access lines name them: the region of DB-IP's city data (`$ek_region`) for the
 * mainland's, the country code for Hong Kong and Macau (countries of their own there).
 */
const NAMES: Record<string, string> = {
  'guangxi-zhuang': 'Guangxi',
  'hong-kong': 'HK',
  macau: 'MO',
  'nei-mongol': 'Inner Mongolia',
  'ningxia-hui': 'Ningxia',
  quinghai: 'Qinghai',
  'xinjiang-uygur': 'Xinjiang',
  xizang: 'Tibet',
};

export const provinceOf = (id: string, name: string) => NAMES[id] ?? name.trim();

/** China's provinces from `@svg-maps/china` (CC BY 4.0, after MapSVG), as an SVG map whose regions are named paths. */
function registerChina() {
  if (echarts.getMap('china')) return;
  const paths = china.locations.map((l) => `<path name="${provinceOf(l.id, l.name)}" d="${l.path}"/>`).join('');
  echarts.registerMap('china', { svg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${china.viewBox}">${paths}</svg>` });
}

/** The China map chart: the option's map series use `map: 'china'` with the names above. */
export default function ChinaMap(props: ChartProps) {
  registerChina();
  return <EChart {...props} />;
}

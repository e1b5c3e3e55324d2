/** Spec §5 and §9: layer-4 forwarding ports are 1000–65000 (tcp), minus a few reserved ones. */
export const L4_PORT_MIN = 1000;
export const L4_PORT_MAX = 65000;
export const L4_EXCLUDED_PORTS = [3311, 3306, 6379, 9100] as const;
export const L4_EXCLUDED_RANGES = [[61000, 61199]] as const;

export const isL4PortAllowed = (port: number) =>
  port >= L4_PORT_MIN &&
  port <= L4_PORT_MAX &&
  !(L4_EXCLUDED_PORTS as readonly number[]).includes(port) &&
  !L4_EXCLUDED_RANGES.some(([from, to]) => port >= from && port <= to);

/** Spec §9: the cache file-type groups the console offers. */
export const CACHE_FILE_TYPE_GROUPS = {
  image: ['gif', 'png', 'jpg', 'jpeg', 'bmp'],
  page: ['html', 'htm', 'shtml', 'js', 'css', 'woff2'],
  audioVideo: ['mp3', 'wma', 'flv', 'mp4', 'wmv'],
  file: ['ipa', 'apk'],
} as const;

/** Spec §9: the status codes an error page can be set for. */
export const ERROR_PAGE_STATUSES = [400, 403, 500, 502, 504, 903, 929] as const;

export const UPSTREAM_DEFAULT_PORT = 80;
export const UPSTREAM_WEIGHT_MIN = 1;
export const UPSTREAM_WEIGHT_MAX = 100;

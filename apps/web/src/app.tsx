import { useEffect, useState } from 'react';
import { DEFAULT_BRANDING } from '@edgekeep/contract/constants';
import { tierFromPath } from '@edgekeep/contract/tiers';

type Health = { status: string; version: string; database: string };

/** The console's entry: which area this is and whether the API answers. The console shell replaces it. */
export function App() {
  const tier = tierFromPath(window.location.pathname);
  const [health, setHealth] = useState<Health | null>(null);
  useEffect(() => {
    fetch('/api/v1/health')
      .then((r) => r.json())
      .then((body: { data: Health }) => setHealth(body.data))
      .catch(() => setHealth(null));
  }, []);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 32 }}>
      <h1>{DEFAULT_BRANDING.title}</h1>
      <p>Area: {tier}</p>
      <p>API: {health ? `${health.status} · ${health.database} · ${health.version}` : '---'}</p>
      <footer>{DEFAULT_BRANDING.copyright}</footer>
    </main>
  );
}

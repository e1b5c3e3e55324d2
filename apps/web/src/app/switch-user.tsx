import { Navigate, useSearchParams } from 'react-router';
import { tierFromPath } from '@edgekeep/contract/tiers';
import { writeTokens } from '../api/cookies';
import { queryClient } from './query-client';

/** /{tier}/switchUser?accessToken&refreshToken&tokenType: opens another account's session in this tier. */
export function SwitchUser() {
  const [params] = useSearchParams();
  const tier = tierFromPath(window.location.pathname);
  const accessToken = params.get('accessToken');
  const refreshToken = params.get('refreshToken');
  const tokenType = params.get('tokenType');
  if (!accessToken || !refreshToken || !tokenType) return <Navigate to={`/${tier}/login`} replace />;
  writeTokens(tier, { accessToken, refreshToken, tokenType });
  queryClient.removeQueries();
  return <Navigate to={`/${tier}/dashboard`} replace />;
}

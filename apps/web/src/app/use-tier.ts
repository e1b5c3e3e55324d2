import { useLocation } from 'react-router';
import { tierFromPath } from '@edgekeep/contract/tiers';

export const useTier = () => tierFromPath(useLocation().pathname);

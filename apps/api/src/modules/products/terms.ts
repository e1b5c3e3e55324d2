import { siteSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { readJson } from '../../db/json-column';

/** What products.limits keeps: the product body but its name, zone, groups and expiry (columns of their own). */
const terms = siteSchemas.createProductBody.omit({ name: true, zoneID: true, groupID: true, backupGroupID: true, expiredAt: true });
export type Terms = z.infer<typeof terms>;

/** A product's terms; a term the product was made before is read at its default. */
export const readTerms = (limits: string): Terms => readJson('products.limits', terms, limits);

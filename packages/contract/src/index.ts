export * from './constants';
export * from './errors';
export * from './paging';
export * from './route';
export * from './tiers';
export * as schemas from './schemas/account';
export { authRoutes } from './routes/auth';
export { systemRoutes, health } from './routes/system';

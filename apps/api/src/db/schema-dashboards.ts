export type DashboardTables = { dashboards: DashboardTable };
export type DashboardTable = {
  account_id: number;
  /** JSON of the contract's dashboardLayout. */
  layout: string;
  updated_at: string;
};

import type { Generated } from 'kysely';

export type AnnouncementTables = {
  /** Times are ISO-8601 UTC (`toISOString`), so they compare as text. */
  announcements: {
    id: Generated<number>;
    client_id: number;
    title: string;
    content: string;
    start_time: string;
    end_time: string;
    created_by: number | null;
    created_at: string;
    updated_at: string;
  };
};

import { sitesApi, type ErrorPage, type ErrorPageItem } from '../../api/sites';
import { ErrorPageFormModal } from '../error-pages/error-page-form';
import { keys } from './query-keys';
import { useSiteMutation } from './use-site-mutation';

/** A site's own error page, added or edited. */
export function ErrorPageModal({ siteId, page, onClose }: { siteId: number; page?: ErrorPageItem; onClose: () => void }) {
  const save = useSiteMutation({
    fn: (p: ErrorPage) => (page ? sitesApi.updateErrorPage(siteId, { ...p, id: page.id }) : sitesApi.createErrorPage(siteId, p)),
    success: page ? 'updateSuccess' : 'createSuccess',
    refresh: [keys.errorPages(siteId)],
    done: onClose,
  });
  return <ErrorPageFormModal page={page} saving={save.isPending} onSave={(p) => save.mutate(p)} onClose={onClose} testId="error-page" />;
}

import { ErrorPageFormModal } from '../error-pages/error-page-form';
import { useSiteMutation } from './use-site-mutation';
import { siteCalls, siteKeys, type ErrorPage, type ErrorPageItem } from './queries';

/** A site's own error page, added or edited. */
export function ErrorPageModal({ siteId, page, onClose }: { siteId: number; page?: ErrorPageItem; onClose: () => void }) {
  const save = useSiteMutation({
    fn: (p: ErrorPage) => siteCalls.saveErrorPage(siteId, p, page?.id),
    success: page ? 'updateSuccess' : 'createSuccess',
    refresh: [siteKeys.errorPages(siteId)],
    done: onClose,
  });
  return <ErrorPageFormModal page={page} saving={save.isPending} onSave={(p) => save.mutate(p)} onClose={onClose} testId="error-page" />;
}

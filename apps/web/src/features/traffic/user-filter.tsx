import { useListParams } from '../../components/list-params';
import { AccountPicker } from '../client-sites/account-picker';

/** The client's user filter, bound to the `userID` URL parameter. */
export function UserFilter({ placeholder }: { placeholder: string }) {
  const list = useListParams();
  const value = list.filters.userID ? Number(list.filters.userID) : undefined;
  return <AccountPicker auth="user" placeholder={placeholder} value={value} onChange={(id) => list.update({ userID: id })} />;
}

import { BlockList } from './block-list-page';

/** nodeManage/blockList (client mode). */
export default function ClientBlockListPage() {
  return <BlockList mode="client" />;
}

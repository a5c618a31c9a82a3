import Apps from '@mui/icons-material/Apps';
import { ApplicationCreate } from './ApplicationCreate';
import { ApplicationEdit } from './ApplicationEdit';
import { ApplicationList } from './ApplicationList';
import { ApplicationShow } from './ApplicationShow';

/** The registered OAuth clients (docs/oauth-clients.md, docs/console.md "Applications"). */
export default {
  list: ApplicationList,
  show: ApplicationShow,
  create: ApplicationCreate,
  edit: ApplicationEdit,
  icon: Apps,
};

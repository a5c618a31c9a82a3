import CorporateFare from '@mui/icons-material/CorporateFare';
import { OrganizationCreate } from './OrganizationCreate';
import { OrganizationList } from './OrganizationList';
import { OrganizationShow } from './OrganizationShow';

export default { list: OrganizationList, show: OrganizationShow, create: OrganizationCreate, icon: CorporateFare };

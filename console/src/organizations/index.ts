import CorporateFare from '@mui/icons-material/CorporateFare';
import { OrganizationList } from './OrganizationList';
import { OrganizationShow } from './OrganizationShow';

export default { list: OrganizationList, show: OrganizationShow, icon: CorporateFare };
